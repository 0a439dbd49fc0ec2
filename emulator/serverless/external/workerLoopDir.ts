/** Where our Python worker loop (workers/python/worker_loop.py) is, from the sources or from dist/. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

function find(): string {
  for (const up of ["../../..", "../../../.."]) {
    const dir = resolve(__dirname, up, "workers/python");
    if (existsSync(join(dir, "worker_loop.py"))) return dir;
  }
  return resolve(__dirname, "../../../workers/python");
}

export const PYTHON_LOOP_DIR = find();
