/** The checkout's root, found from this file whether it runs from source (tests) or from dist/. */
import * as fs from "node:fs";
import * as path from "node:path";

export function repoRoot(start: string = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-gpucloud")
      return dir;
    if (path.dirname(dir) === dir) throw new Error(`pulumi-gpucloud: no package.json of pulumi-gpucloud above ${start}`);
  }
}
