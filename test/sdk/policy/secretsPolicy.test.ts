import { describe, expect, it } from "vitest";
import { secretsPolicy } from "../../../sdk/policy";
import { DECLARATIONS, runResourcePolicy, UNKNOWN } from "../../support/policyHarness";

const HF = "hf_abcdefghijklmnopqrstuvwxyz0123";

describe.each(DECLARATIONS)("gpucloud-secrets, declared as a %s resource", (via) => {
  const env = (kind: "pod" | "template", values: Record<string, unknown>, config: object = {}) =>
    runResourcePolicy(secretsPolicy, { kind, via, name: "app", props: { env: values } }, config);

  it("passes Secret references, plain settings, PUBLIC_KEY and allowed keys", () => {
    expect(
      env(
        "pod",
        {
          HF_TOKEN: "{{ GPUCLOUD_SECRET_hf_token }}",
          MODEL: "llama",
          PUBLIC_KEY: "ssh-ed25519 AAAA",
          TOKENIZERS_PARALLELISM: "false",
          LATER: UNKNOWN,
        },
        { allowedKeys: ["TOKENIZERS_PARALLELISM"] },
      ),
    ).toEqual([]);
  });

  it("reports a credential by its name and by its shape, never showing the value", () => {
    const messages = env("template", { DB_PASSWORD: "hunter2-but-longer", SOMETHING: HF });
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe(
      'Template "app": env.DB_PASSWORD "hun..." (18 characters, the rest withheld) is a plain value under a credential\'s name: env values are stored and shown as plain configuration; keep it in a Secret (new gpucloud.Secret("...", { name: "DB_PASSWORD", value: config.requireSecret("...") })) and set env.DB_PASSWORD to its reference, secret.ref; or add "DB_PASSWORD" to allowedKeys if it is no credential',
    );
    expect(messages[1]).toMatch(
      /^Template "app": env\.SOMETHING "hf_\.\.\." \(33 characters, the rest withheld\) looks like a Hugging Face token/,
    );
    for (const m of messages) {
      expect(m).not.toContain("hunter2");
      expect(m).not.toContain(HF);
    }
  });

  it("recognises other credential shapes", () => {
    for (const value of [
      "AKIAABCDEFGHIJKLMNOP",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nabc",
      "sk-abcdefghijklmnopqrstuvwx",
      "ghp_abcdefghijklmnopqrstuvwxyz",
    ])
      expect(env("pod", { VALUE: value }), value).toHaveLength(1);
  });

  it("checks pods and templates only", () => {
    expect(runResourcePolicy(secretsPolicy, { kind: "endpoint", via, props: { env: { TOKEN: HF } } })).toEqual([]);
  });
});
