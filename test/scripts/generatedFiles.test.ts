/**
 * The files generated from the field tables (scripts/generate.ts: the provider plugin's schema,
 * plugin/schema.json, the SDK's output lists, model/fields/outputLists.ts, and the reference page of
 * each resource, docs/reference/<Resource>.md) must be what a fresh
 * generation gives, so that an argument, an output, a doc comment or the version changed without
 * regenerating fails here, naming the fix.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED, schemaFileText } from "../../scripts/generate";
import { PLUGIN_RESOURCE_KINDS, typeNameOf } from "../../provider/plugin/tokens";

const root = path.resolve(__dirname, "..", "..");

describe("the files generated from the field tables", () => {
  it.each(GENERATED.map((g) => [g.file, g] as const))("%s is what a fresh generation gives", { timeout: 120_000 }, (file, generated) => {
    const checkedIn = fs.readFileSync(path.join(root, file), "utf8");
    expect(checkedIn === generated.text(root), `${file} is out of date: run \`npm run generate\` and commit the result`).toBe(true);
  });

  it("docs/reference holds one generated page per resource, and no page of a resource that is gone", () => {
    const pages = fs.readdirSync(path.join(root, "docs", "reference")).sort();
    expect(pages).toEqual(PLUGIN_RESOURCE_KINDS.map((kind) => `${typeNameOf(kind)}.md`).sort());
    for (const page of pages) expect(GENERATED.map((g) => g.file)).toContain(`docs/reference/${page}`);
  });

  it("the schema carries the package's version for every generated SDK", { timeout: 120_000 }, () => {
    const schema = JSON.parse(schemaFileText(root)) as { version: string; language: Record<string, { respectSchemaVersion?: boolean }> };
    const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(schema.version).toBe(manifest.version);
    for (const language of ["nodejs", "python", "go", "csharp"]) expect(schema.language[language]?.respectSchemaVersion).toBe(true);
  });
});
