/**
 * The provider plugin's schema (plugin/schema.json) is generated from the field tables and the SDK's
 * declarations: the checked-in file must be what a fresh generation gives, so that an argument, an
 * output, a doc comment or the version changed without regenerating fails here, naming the fix.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { schemaFileText } from "../../../scripts/plugin-schema";

const root = path.resolve(__dirname, "..", "..", "..");

describe("the provider plugin's package schema", () => {
  it("is what the field tables and the SDK give", { timeout: 120_000 }, () => {
    const checkedIn = fs.readFileSync(path.join(root, "plugin", "schema.json"), "utf8");
    const fresh = schemaFileText(root);
    expect(checkedIn === fresh, "plugin/schema.json is out of date: run `npm run plugin:schema` and commit the result").toBe(true);
    const schema = JSON.parse(fresh) as { version: string; language: Record<string, { respectSchemaVersion?: boolean }> };
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(schema.version).toBe(manifest.version);
    for (const language of ["nodejs", "python", "go", "csharp"]) expect(schema.language[language]?.respectSchemaVersion).toBe(true);
  });
});
