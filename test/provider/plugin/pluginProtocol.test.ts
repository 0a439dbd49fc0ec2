/**
 * The provider plugin's translation of protocol values (provider/plugin/protocol.ts): secrets
 * unwrapped for the lifecycle and wrapped again on the way out, the unknown sentinel passed through
 * as the lifecycle expects it, what the engine may not be sent, the detailed diff's vocabulary and
 * the engine address among the plugin's arguments.
 */
import * as rpc from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../../model/fields/values";
import { engineAddressOf } from "../../../provider/plugin/main";
import {
  detailedDiffOf,
  forEngine,
  reveal,
  revealProps,
  SECRET_SIG,
  SECRET_SIG_KEY,
  secretKeysOf,
  secretOf,
} from "../../../provider/plugin/protocol";

const secret = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG, value });

describe("the provider plugin's protocol values", () => {
  it("uses the protocol's own markers: the secret signature and the unknown the lifecycle already handles", () => {
    expect(SECRET_SIG_KEY).toBe(rpc.specialSigKey);
    expect(SECRET_SIG).toBe(rpc.specialSecretSig);
    // The dynamic-provider host hands the lifecycle the same sentinel: no mapping needed.
    expect(UNKNOWN).toBe(rpc.unknownValue);
  });

  it("unwraps secrets anywhere in a value, and remembers which top-level properties held one", () => {
    expect(reveal(secret("x"))).toEqual({ value: "x", secret: true });
    expect(reveal({ A: "1", B: secret("2") })).toEqual({ value: { A: "1", B: "2" }, secret: true });
    expect(reveal(["a", secret(["b"])])).toEqual({ value: ["a", ["b"]], secret: true });
    expect(reveal(secret(UNKNOWN))).toEqual({ value: UNKNOWN, secret: true });
    const revealed = revealProps({ name: "n", env: { T: secret("t") }, password: secret("p"), ports: ["22/tcp"] });
    expect(revealed.values).toEqual({ name: "n", env: { T: "t" }, password: "p", ports: ["22/tcp"] });
    expect([...revealed.secretKeys].sort()).toEqual(["env", "password"]);
    expect(revealProps(undefined)).toEqual({ values: {}, secretKeys: new Set() });
  });

  it("wraps the secret properties once, whole, and sends neither undefined nor the dynamic provider's text", () => {
    const keys = secretKeysOf(["env"], revealProps({ imageName: secret("img") }));
    expect([...keys].sort()).toEqual(["env", "imageName"]);
    expect(
      forEngine(
        { env: { A: "1", B: undefined }, imageName: "img", name: "n", gone: undefined, list: [1, undefined], __provider: "x" },
        keys,
      ),
    ).toEqual({ env: secret({ A: "1" }), imageName: secret("img"), name: "n", list: [1, null] });
    expect(forEngine({ env: secretOf({ A: "1" }) }, ["env"])).toEqual({ env: secret({ A: "1" }) });
  });

  it("speaks the detailed diff's vocabulary", () => {
    expect(
      detailedDiffOf({
        imageName: { kind: "update", replace: false },
        cloudType: { kind: "update", replace: true },
        "env.A": { kind: "add", replace: false },
        templateId: { kind: "delete", replace: true },
      }),
    ).toEqual({ imageName: "UPDATE", cloudType: "UPDATE_REPLACE", "env.A": "ADD", templateId: "DELETE_REPLACE" });
  });

  it("finds the engine's address among the arguments the engine passes", () => {
    expect(engineAddressOf(["127.0.0.1:4567"])).toBe("127.0.0.1:4567");
    expect(engineAddressOf(["--logtostderr", "-v=9", "--tracing", "http://t:1", "127.0.0.1:4567"])).toBe("127.0.0.1:4567");
    expect(engineAddressOf([])).toBeUndefined();
  });
});
