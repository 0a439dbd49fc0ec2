/**
 * Writes the files derived from the field tables, so that a field is declared in one place: the
 * provider plugin's package schema, plugin/schema.json (from the tables and the SDK's declarations,
 * scripts/lib/pluginSchema), and the output lists the SDK registers, model/fields/outputLists.ts
 * (scripts/lib/outputLists.ts), and a reference page per resource, docs/reference/<Resource>.md,
 * from the same doc comments and tables (scripts/lib/referencePages.ts). `npm run generate` after a
 * change to an argument, an output, their documentation or the package's version (then `npm run sdk:generate` for the other languages' SDKs);
 * `npm test` fails while a checked-in file differs from a fresh generation.
 *
 * Usage: node dist/scripts/generate.js [--check]
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { outputListsText } from "./lib/outputLists";
import { buildSchema } from "./lib/pluginSchema/build";
import { REFERENCE_PAGES } from "./lib/referencePages";
import { repoRoot } from "./lib/repoRoot";

/** The schema as the file holds it. */
export function schemaFileText(root: string): string {
  return `${JSON.stringify(buildSchema(root), null, 2)}\n`;
}

/** Every generated file: its path in the repository and its text. */
export const GENERATED: ReadonlyArray<{ file: string; text(root: string): string }> = [
  { file: "plugin/schema.json", text: schemaFileText },
  { file: "model/fields/outputLists.ts", text: outputListsText },
  ...REFERENCE_PAGES,
];

function main(): void {
  const root = repoRoot();
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const { file, text } of GENERATED) {
    const target = path.join(root, file);
    const fresh = text(root);
    if (!check) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, fresh);
      console.log(`wrote ${file}`);
    } else if ((fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "") !== fresh) {
      console.error(`${file} is not what the field tables and the SDK give: run \`npm run generate\``);
      stale++;
    }
  }
  if (stale > 0) process.exit(1);
  if (check) console.log("the generated files are current");
}

if (require.main === module) main();
