/**
 * The provider plugin's entry point (`pulumi-resource-gpucloud`, plugin/ at the package's root,
 * runs it with Node.js): checks the Node.js version before anything else loads, serves the
 * provider on a free local port and prints that port, which is how the engine finds it.
 *
 * Arguments, as the engine passes them: `[--logtostderr] [-v=N] [--tracing <endpoint>] <engine address>`.
 */
import { nodeVersionProblem } from "../../client/nodeVersion";

// Checked before @pulumi/pulumi and the clients load: under an old Node.js they fail far from the
// cause. The provider's code loads only in runPlugin, and not at all under an old Node.js.
const tooOld = nodeVersionProblem("the gpucloud provider plugin (pulumi-resource-gpucloud)");

/** The engine's address among the plugin's arguments. */
export function engineAddressOf(args: readonly string[]): string | undefined {
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--tracing") i++;
    else if (!arg.startsWith("-")) rest.push(arg);
  }
  return rest[0];
}

/** Serves until the engine ends the process. */
export async function runPlugin(): Promise<void> {
  if (tooOld !== undefined) {
    // A plugin that exits is reported by the engine as "always a bug in the provider", above its
    // words; one that refuses every call has its line printed as the provider's error (refusal.ts).
    const [{ serveRefusal }, { packageVersion }] = await Promise.all([import("./refusal"), import("./packageFiles")]);
    await serveRefusal(tooOld, packageVersion());
    return;
  }
  const [{ engineLog }, { listen, providerService }] = await Promise.all([import("./engineLog"), import("./server")]);
  const log = engineLog(engineAddressOf(process.argv.slice(2)));
  const { port } = await listen(providerService(log));
  // The engine reads this one line; anything printed later is shown as the plugin's output.
  process.stdout.write(`${port}\n`);
}

/** Runs the plugin, or ends the process with the reason it could not start. */
export function start(): void {
  runPlugin().catch((error: unknown) => {
    // Under an old Node.js the version is the cause, whatever failed.
    if (tooOld !== undefined) process.stderr.write(`${tooOld}\n`);
    process.stderr.write(`pulumi-gpucloud provider plugin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

// Run as a program by the plugin's launcher (plugin/pulumi-resource-gpucloud); a launcher that
// loads it (the installed plugin's, plugin/installed/launch.js, packed by provider/plugin/tarball.ts) calls start() itself.
if (require.main === module) start();
