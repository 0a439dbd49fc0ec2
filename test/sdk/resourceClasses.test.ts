import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { recordResources, outputValue, type Registered } from "../support/pulumiMocks";

let registered: Registered[] = [];

beforeAll(() => {
  registered = recordResources((name) => ({ endpointId: `${name}-id` }));
});

describe("SDK classes", () => {
  it("register under the package's type tokens, with the resource name as the default name", async () => {
    const gpucloud = await import("../../sdk/index");
    const pod = new gpucloud.Pod("trainer", { imageName: "img", ports: ["22/tcp"] });
    const endpoint = new gpucloud.Endpoint("infer", { templateId: "t1", workersMax: 2 });
    expect(await outputValue(pod.name)).toBe("trainer");
    expect(await outputValue(endpoint.name)).toBe("infer");
    expect(await outputValue(endpoint.endpointId)).toBe("infer-id");
    const types = registered.map((r) => r.type);
    expect(types).toContain("pulumi-nodejs:dynamic/gpucloud:Pod");
    expect(types).toContain("pulumi-nodejs:dynamic/gpucloud:Endpoint");
    const podInputs = registered.find((r) => r.name === "trainer")?.inputs ?? {};
    expect(podInputs).toMatchObject({ name: "trainer", imageName: "img", ports: ["22/tcp"] });
    // The serialized provider is a tiny shim, and carries no credentials.
    expect(typeof podInputs["__provider"]).toBe("string");
  });

  it("RegistryAuth keeps username and password secret", async () => {
    const gpucloud = await import("../../sdk/index");
    const auth = new gpucloud.RegistryAuth("ghcr", { name: "ghcr", username: "bot", password: "pw" });
    expect(await pulumi.isSecret(auth.password)).toBe(true);
    expect(await pulumi.isSecret(auth.username)).toBe(true);
    expect(await pulumi.isSecret(auth.name)).toBe(false);
  });

  it("Secret makes a plain value secret, and ref is the placeholder, not secret, depending on the secret", async () => {
    const gpucloud = await import("../../sdk/index");
    const token = new gpucloud.Secret("hf", { name: "HF_TOKEN", value: "plain-value" });
    expect(await pulumi.isSecret((token as unknown as { value: pulumi.Output<string> }).value)).toBe(true);
    expect(await outputValue(token.ref)).toBe("{{ GPUCLOUD_SECRET_HF_TOKEN }}");
    expect(await pulumi.isSecret(token.ref)).toBe(false);
    // An Output carrying the secret as a dependency: a consumer's env value makes it depend on it.
    const dependsOn = await (token.ref as unknown as { resources(): Promise<Set<pulumi.Resource>> }).resources();
    expect([...dependsOn]).toContain(token);
    expect(registered.find((r) => r.name === "hf")?.inputs).toMatchObject({ name: "HF_TOKEN" });
  });
});
