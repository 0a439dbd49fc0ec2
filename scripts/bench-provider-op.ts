/**
 * One operation of scripts/bench-provider.ts in a process of its own (its --fresh mode): opens the
 * stack a spec names with the same inline program, runs one `preview` (no changes expected) or
 * `up`, and exits. Everything a user's `pulumi preview` loads anew happens here once: Node, the
 * automation API, the program with the SDK (the package installed from `npm pack` for the endpoints
 * stacks), the engine and the provider process (the plugin's, for the plugin stack). The machine has no Node language host, so this is
 * the closest stand-in; the parent times the process from spawn to exit.
 *
 *   node dist/scripts/bench-provider-op.js '<json: { spec, program, op, count, shape? }>'
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import {
  benchProgram,
  ENDPOINT_PROGRAMS,
  moduleOf,
  stackOf,
  type BenchProgram,
  type EndpointClasses,
  type Shape,
  type StackSpec,
} from "./lib/benchPrograms";

interface OpRequest {
  spec: StackSpec;
  program: BenchProgram;
  op: "preview" | "up";
  count: number;
  shape?: Shape;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? "{}") as OpRequest;
  const { spec } = request;
  // The endpoints stacks run on the packed install, as a user's project does; the floors on this checkout's.
  const load = spec.projectDir ? createRequire(path.join(spec.projectDir, "index.js")) : require;
  const automation = load("@pulumi/pulumi/automation") as Parameters<typeof stackOf>[2];
  const installed = ENDPOINT_PROGRAMS.includes(request.program) ? (load(moduleOf(request.program)) as EndpointClasses) : undefined;
  const stack = await stackOf(spec, benchProgram(request.program, request.count, installed, request.shape), automation);
  if (request.op === "preview") await stack.preview({ expectNoChanges: true });
  else await stack.up();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`bench-provider-op failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
