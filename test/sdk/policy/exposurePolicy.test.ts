import { describe, expect, it } from "vitest";
import { exposurePolicy } from "../../../sdk/policy";
import { DECLARATIONS, runResourcePolicy } from "../../support/policyHarness";

const KEY = { PUBLIC_KEY: "ssh-ed25519 AAAA me@host" };

describe.each(DECLARATIONS)("gpucloud-exposure, declared as a %s resource", (via) => {
  const pod = (props: Record<string, unknown>, config: object = {}) =>
    runResourcePolicy(exposurePolicy, { kind: "pod", via, name: "box", props }, config);

  it("passes http ports and SSH with a key", () => {
    expect(pod({ ports: ["8888/http", "22/tcp"], startSsh: true, env: KEY })).toEqual([]);
  });

  it("reports a public TCP port other than SSH's, Jupyter, and SSH without a key", () => {
    expect(pod({ ports: ["6006/tcp"] })).toEqual([
      'Pod "box": ports "6006/tcp" opens a public TCP port other than SSH\'s; serve it as "6006/http" behind the service\'s proxy, remove it, or add 6006 to allowedTcpPorts in the policy config',
    ]);
    expect(pod({ startJupyter: true, env: KEY })).toEqual([
      'Pod "box": startJupyter true starts a Jupyter server reachable from the internet; remove startJupyter, or set allowJupyter in the policy config',
    ]);
    expect(pod({ ports: ["22/tcp"] })).toEqual([
      'Pod "box": ports "22/tcp" opens SSH with no key declared (env.PUBLIC_KEY); set env.PUBLIC_KEY to your public key, or set allowSshWithoutKeys in the policy config when the account\'s keys (AccountSshKeys) serve',
    ]);
    const template = runResourcePolicy(exposurePolicy, { kind: "template", via, name: "t", props: { startSsh: true } });
    expect(template[0]).toMatch(/^Template "t": startSsh true opens SSH with no key declared/);
  });

  it("allows each with an explicit allowance", () => {
    expect(
      pod(
        { ports: ["6006/tcp", "22/tcp"], startJupyter: true },
        { allowedTcpPorts: [6006], allowJupyter: true, allowSshWithoutKeys: true },
      ),
    ).toEqual([]);
  });
});
