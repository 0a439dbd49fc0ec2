/**
 * The clone budget, run by `npm run lint` (and so by `npm test`): repeated blocks of code found by a
 * token-based clone detector (jscpd), held to two rules.
 *
 * 1. The emulator's two management surfaces (`/v1` and `/api/v2`) share no block: what both APIs do
 *    is stated once in the management domain below them, and a surface only translates shapes.
 * 2. The code the provider process and the SDK run (`provider/`, `model/`, `client/`) repeats at most
 *    `MAX_REPEATS` blocks: each one left is a place where one piece of code could serve.
 *
 *   npm run build && npx node dist/scripts/check-clones.js
 *
 * A block is at least `MIN_LINES` lines and `MIN_TOKENS` tokens, the same to the token (names and
 * literals included). Exit status: 0 within the budget, 1 over it (each block named), 2 unusable.
 */
import * as path from "node:path";
import { detectClones } from "jscpd";
import { repoRoot as findRepoRoot } from "./lib/repoRoot";

const repoRoot = findRepoRoot();

const MIN_LINES = 6;
const MIN_TOKENS = 50;
const MAX_REPEATS = 3;

/** The two management surfaces of the emulator; a block shared between them fails rule 1. */
const SURFACES = { v1: "emulator/management/v1/", v2: "emulator/management/v2/" } as const;
/** Files a generator writes from one source (their repeats are the source's, said once there). */
const GENERATED = ["**/model/fields/outputLists.ts"];
/** The wings of rule 2. */
const SHARED_WINGS = ["provider", "model", "client"] as const;

interface Block {
  file: string;
  from: number;
  to: number;
}
interface Repeat {
  a: Block;
  b: Block;
}

async function repeatsIn(folders: readonly string[]): Promise<Repeat[]> {
  const clones = await detectClones({
    path: folders.map((folder) => path.join(repoRoot, folder)),
    format: ["typescript"],
    minLines: MIN_LINES,
    minTokens: MIN_TOKENS,
    silent: true,
    reporters: [],
    gitignore: true,
    ignore: GENERATED,
  });
  const block = (d: (typeof clones)[number]["duplicationA"]): Block => ({
    file: path.relative(repoRoot, d.sourceId),
    from: d.start.line,
    to: d.end.line,
  });
  return clones.map((clone) => ({ a: block(clone.duplicationA), b: block(clone.duplicationB) }));
}

function shown(repeat: Repeat): string {
  return `${repeat.a.file}:${repeat.a.from}-${repeat.a.to} ~ ${repeat.b.file}:${repeat.b.from}-${repeat.b.to}`;
}

function surfaceOf(file: string): keyof typeof SURFACES | undefined {
  if (file.startsWith(SURFACES.v1)) return "v1";
  if (file.startsWith(SURFACES.v2)) return "v2";
  return undefined;
}

async function main(): Promise<number> {
  const failures: string[] = [];

  const management = await repeatsIn(["emulator/management"]);
  const across = management.filter((r) => {
    const sides = new Set([surfaceOf(r.a.file), surfaceOf(r.b.file)]);
    return sides.has("v1") && sides.has("v2");
  });
  for (const repeat of across) failures.push(`the /v1 and /api/v2 surfaces repeat a block (state it once in the domain): ${shown(repeat)}`);

  const shared = await repeatsIn(SHARED_WINGS);
  if (shared.length > MAX_REPEATS) {
    failures.push(`${SHARED_WINGS.join(", ")} repeat ${shared.length} blocks, more than ${MAX_REPEATS}:`);
    for (const repeat of shared) failures.push(`  ${shown(repeat)}`);
  }

  const summary =
    `clones: /v1 ~ /api/v2 ${across.length} (allowed 0); ${SHARED_WINGS.join(" + ")} ${shared.length} (allowed ${MAX_REPEATS})` +
    ` [blocks of ${MIN_LINES}+ lines, ${MIN_TOKENS}+ tokens]`;
  if (failures.length === 0) {
    console.log(summary);
    return 0;
  }
  console.error(`${summary}\n${failures.join("\n")}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`check-clones: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
