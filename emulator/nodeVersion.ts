// The Node.js version the emulator needs, checked before the CLI loads anything else: under an
// older Node.js a dependency fails deep inside, and every client of the emulator then sees lost
// connections. The emulator imports nothing from client/ (it is an independent implementation),
// so this is its own copy of the rule; a test holds both equal to package.json's `engines.node`.

/** The oldest Node.js major version supported. */
export const NODE_MAJOR_REQUIRED = 22;

/** The one line saying what is wrong and the fix, or undefined when `version` ("v24.9.0") is recent enough. */
export function nodeVersionProblem(version: string = process.version, execPath: string = process.execPath): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isFinite(major) || major >= NODE_MAJOR_REQUIRED) return undefined;
  return (
    `gpucloud-emulator needs Node.js >= ${NODE_MAJOR_REQUIRED}, but this is Node.js ${version} (${execPath}). ` +
    `Fix: install Node.js ${NODE_MAJOR_REQUIRED} or later (e.g. \`nvm install ${NODE_MAJOR_REQUIRED}\`) and run it with that \`node\`.`
  );
}
