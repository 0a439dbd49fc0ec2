// The Node.js version this package needs, checked when an entry point loads (the SDK in a Pulumi
// program, the provider in the engine's provider process): under an older Node.js a dependency
// fails deep inside, far from the cause (the provider then looks like a lost connection).
// Written for old versions too: nothing here needs more than Node.js 12.

/** The oldest Node.js major version supported; the same as package.json's `engines.node` (a test holds them equal). */
export const NODE_MAJOR_REQUIRED = 22;

/** The one line saying what is wrong and the fix, or undefined when `version` ("v24.9.0") is recent enough. */
export function nodeVersionProblem(
  where: string,
  version: string = process.version,
  execPath: string = process.execPath,
): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isFinite(major) || major >= NODE_MAJOR_REQUIRED) return undefined;
  return (
    `pulumi-gpucloud needs Node.js >= ${NODE_MAJOR_REQUIRED}, but ${where} runs on Node.js ${version} (${execPath}). ` +
    `Fix: install Node.js ${NODE_MAJOR_REQUIRED} or later (e.g. \`nvm install ${NODE_MAJOR_REQUIRED}\`) and make it the \`node\` first on PATH, then run again.`
  );
}

/** Throws the one line (no stack trace: the cause is the Node.js version, not a line of code). */
export function requireNodeVersion(where: string): void {
  const problem = nodeVersionProblem(where);
  if (problem === undefined) return;
  const error = new Error(problem);
  error.stack = problem;
  throw error;
}
