// Values the program gave as secrets stay out of what the plugin prints (provider/plugin/redaction.ts,
// through the client's redactText): a check failure about such an argument names no property and
// shows [redacted]; other texts lose the secret's longer values; the engine log redacts the lines of
// the request being served.
import { describe, expect, it } from "vitest";
import { engineLog, forResource } from "../../../provider/plugin/engineLog";
import { REDACTED } from "../../../client/redact";
import { redactFailure, redactingErrors, secretTexts } from "../../../provider/plugin/redaction";

const values = { imageName: "registry.example/private:9", workersMax: 5, env: { TOKEN: "tok-abcdef" }, name: "plain" };

describe("redaction of values given as secrets", () => {
  it("collects the texts of the secret arguments only, longest first, 4 characters or more unless asked", () => {
    expect(secretTexts(values, new Set(["imageName", "workersMax", "env"]))).toEqual(["registry.example/private:9", "tok-abcdef"]);
    expect(secretTexts(values, ["workersMax"], 1)).toEqual(["5"]);
    expect(secretTexts(values, [])).toEqual([]);
  });

  it("also collects a value as a message quotes it, when that spells it differently", () => {
    expect(secretTexts({ imageName: 'my"image' }, ["imageName"])).toEqual(['my\\"image', 'my"image']);
  });

  it("a failure about a secret argument names no property and starts with the argument; others keep theirs", () => {
    const secretKeys = new Set(["workersMax"]);
    expect(redactFailure({ property: "workersMax", reason: "workersMax: must be a whole number, got 5" }, secretKeys, [], values)).toEqual({
      property: "",
      reason: `workersMax: must be a whole number, got ${REDACTED}`,
    });
    expect(redactFailure({ property: "workersMax", reason: "got 5" }, secretKeys, [], values).reason).toBe(`workersMax: got ${REDACTED}`);
    const other = { property: "workersMin", reason: "is more than workersMax (tok-abcdef)" };
    expect(redactFailure(other, secretKeys, ["tok-abcdef"], values)).toEqual({
      property: "workersMin",
      reason: `is more than workersMax (${REDACTED})`,
    });
  });

  it("an error of a create or update has them redacted from its message", async () => {
    const failing = redactingErrors(["tok-abcdef"], async () => {
      throw new Error("the service refused env TOKEN=tok-abcdef");
    });
    await expect(failing).rejects.toThrow(`the service refused env TOKEN=${REDACTED}`);
  });

  it("the engine log redacts what the request being served logs, and nothing outside it", () => {
    const lines: string[] = [];
    const log = engineLog(undefined, (_severity, message) => lines.push(message));
    forResource("urn:pulumi:s::p::gpucloud:index:Pod::p", () => log.warn('pod gpuTypeIds "Imaginary GPU 9000" is not listed'), [
      "Imaginary GPU 9000",
    ]);
    log.warn('pod gpuTypeIds "Imaginary GPU 9000" is not listed');
    expect(lines).toEqual([`pod gpuTypeIds "${REDACTED}" is not listed`, 'pod gpuTypeIds "Imaginary GPU 9000" is not listed']);
  });
});
