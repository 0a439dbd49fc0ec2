/**
 * State bytes per resource kind (scripts/lib/stateBytes.ts), on both management APIs.
 *
 *   npx tsc -p tsconfig.json && npx node dist/scripts/state-bytes.js [--dist <compiled package root>]
 *
 * `--dist` measures another build of the package (default: this checkout's `dist/`), e.g. the code
 * before a change: `git archive <commit> | tar -x -C /tmp/before`, link node_modules, build there.
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import { stateBytesPerKind } from "./lib/stateBytes";

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dist: { type: "string", default: path.resolve(__dirname, "..") } }, strict: true });
  for (const api of ["v1", "v2"] as const) {
    const rows = await stateBytesPerKind(path.resolve(values.dist), api);
    console.log(`${api}: ${rows.map((r) => `${r.kind} ${r.total} B (inputs ${r.inputs}, outputs ${r.outputs})`).join("; ")}`);
  }
}

main().catch((e: unknown) => {
  console.error(`state-bytes failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exit(1);
});
