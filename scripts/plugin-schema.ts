/**
 * Writes the provider plugin's package schema, plugin/schema.json, generated from the field tables
 * and the SDK's declarations (scripts/lib/pluginSchema). `npm run plugin:schema` after a change to
 * an argument, an output, their documentation or the package's version; `npm test` fails while the
 * checked-in file differs from a fresh generation.
 *
 * Usage: node dist/scripts/plugin-schema.js [--check]
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildSchema } from "./lib/pluginSchema/build";
import { repoRoot } from "./lib/repoRoot";

/** The schema as the file holds it. */
export function schemaFileText(root: string): string {
  return `${JSON.stringify(buildSchema(root), null, 2)}\n`;
}

function main(): void {
  const root = repoRoot();
  const file = path.join(root, "plugin", "schema.json");
  const text = schemaFileText(root);
  if (process.argv.includes("--check")) {
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    if (current !== text) {
      console.error(`${path.relative(root, file)} is not what the field tables and the SDK give: run \`npm run plugin:schema\``);
      process.exit(1);
    }
    console.log(`${path.relative(root, file)} is current`);
    return;
  }
  fs.writeFileSync(file, text);
  console.log(`wrote ${path.relative(root, file)}`);
}

if (require.main === module) main();
