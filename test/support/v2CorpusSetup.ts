/**
 * Vitest setup file: fails the test during which the emulator gave a v2 answer that does not fit the
 * project's description of the v2 wire (see v2Corpus.ts, which records and checks
 * every answer of an emulator started by startTestEmulator). The last hook of each file catches
 * answers given after its last test (in afterAll hooks).
 */
import { afterAll, afterEach } from "vitest";
import { takeV2Violations } from "./v2Corpus";

function failOnViolations(when: string): void {
  const { violations } = takeV2Violations();
  if (violations.length > 0) {
    throw new Error(
      `the emulator answered ${violations.length} time(s) outside the described v2 wire (${when}):\n  ${violations.join("\n  ")}`,
    );
  }
}

afterEach(() => failOnViolations("during this test or the hooks before it"));
afterAll(() => failOnViolations("after the last test of this file"));
