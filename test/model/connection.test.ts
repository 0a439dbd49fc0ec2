// The provider process's management client: resolved from the settings in force, and resolved again
// only when they change (a new stack config, or another GPUCLOUD_API_URL / GPUCLOUD_API_KEY).
import { afterEach, describe, expect, it } from "vitest";
import { closeClients, managementClient } from "../../model/connection";
import { getStackConfig, setStackConfig } from "../../model/stackConfig";

describe("managementClient", () => {
  const saved = { config: getStackConfig(), url: process.env["GPUCLOUD_API_URL"], key: process.env["GPUCLOUD_API_KEY"] };
  afterEach(async () => {
    setStackConfig(saved.config);
    for (const [name, value] of [
      ["GPUCLOUD_API_URL", saved.url],
      ["GPUCLOUD_API_KEY", saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await closeClients();
  });

  it("is the same client while the settings stay, and another one when the stack config or the env changes", () => {
    delete process.env["GPUCLOUD_API_URL"];
    delete process.env["GPUCLOUD_API_KEY"];
    setStackConfig({ "gpucloud:apiUrl": "http://127.0.0.1:1/v1", "gpucloud:apiKey": "key-a" });
    const first = managementClient();
    expect(managementClient()).toBe(first);

    setStackConfig({ "gpucloud:apiUrl": "http://127.0.0.1:1/v2", "gpucloud:apiKey": "key-a" });
    const onV2 = managementClient();
    expect(onV2).not.toBe(first);
    expect(managementClient()).toBe(onV2);

    // The env fills what the stack config leaves out: a new key there is a new client.
    setStackConfig({ "gpucloud:apiUrl": "http://127.0.0.1:1/v2" });
    process.env["GPUCLOUD_API_KEY"] = "key-b";
    const withEnvKey = managementClient();
    process.env["GPUCLOUD_API_KEY"] = "key-c";
    expect(managementClient()).not.toBe(withEnvKey);

    // The same settings again: the client made for them before.
    setStackConfig({ "gpucloud:apiUrl": "http://127.0.0.1:1/v1", "gpucloud:apiKey": "key-a" });
    expect(managementClient()).toBe(first);
  });
});
