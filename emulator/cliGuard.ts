// Imported first by the CLI: one line and exit code 1 under a Node.js too old, before any dependency loads.
import { nodeVersionProblem } from "./nodeVersion";

const problem = nodeVersionProblem();
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
