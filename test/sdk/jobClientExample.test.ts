/**
 * The job client's complete example (docs/job-client.md, "A complete example") cannot rot: it runs
 * as the guide says (`node --experimental-strip-types jobs.ts <endpoint id>`, the key and URL from the
 * environment) from a folder where the package is installed, against the emulator, printing what
 * each step should (docsSnippets.test.ts type-checks it with the documentation's other TypeScript).
 * Needs a current dist/ (the installed package's code).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index";
import { api, createServerlessTemplate } from "../support/managementHelpers";

const repoRoot = path.resolve(__dirname, "..", "..");
const guide = fs.readFileSync(path.join(repoRoot, "docs", "job-client.md"), "utf8");

/** The first TypeScript block of the guide's "A complete example" section. */
function exampleCode(): string {
  const start = guide.indexOf("\n## A complete example\n");
  const end = guide.indexOf("\n## ", start + 1);
  const block = /```ts\n([\s\S]*?)```/.exec(guide.slice(start, end < 0 ? undefined : end));
  if (start < 0 || !block?.[1]) throw new Error('docs/job-client.md has no TypeScript block under "## A complete example"');
  return block[1];
}

/** The command line the guide gives, which the test runs as written but for the URL, key and id. */
function documentedCommand(): string {
  const line = guide.split("\n").find((l) => l.includes("node --experimental-strip-types jobs.ts"));
  if (!line) throw new Error("docs/job-client.md gives no command that runs jobs.ts");
  return line;
}

describe("the job client's complete example in docs/job-client.md", { timeout: 120_000 }, () => {
  const code = exampleCode();
  let dir: string;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-jobs-example-"));
    fs.writeFileSync(path.join(dir, "jobs.ts"), code);
    // The package installed in the folder, as in a user's project.
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(repoRoot, path.join(dir, "node_modules", "pulumi-gpucloud"), "dir");
    emulator = await startEmulator({ port: 0, timeScale: 0.01, apiKeys: ["dev-key"] });
  });

  afterAll(async () => {
    await emulator?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs as the guide says against an endpoint of the emulator", async () => {
    expect(documentedCommand()).toMatch(
      /^GPUCLOUD_SERVERLESS_URL=\S+ GPUCLOUD_API_KEY=\S+ node --experimental-strip-types jobs.ts <endpoint id>$/,
    );
    const client = api(emulator, "dev-key");
    const template = await createServerlessTemplate(client);
    const endpoint = await client.post("/endpoints", { name: "jobs", templateId: template.id, gpuTypeIds: ["NVIDIA L4"], workersMax: 2 });
    expect(endpoint.status).toBe(200);
    const id = String(endpoint.body.id);

    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["--experimental-strip-types", "jobs.ts", id], {
      cwd: dir,
      env: { PATH: process.env["PATH"] ?? "", GPUCLOUD_SERVERLESS_URL: emulator.serverlessUrl, GPUCLOUD_API_KEY: "dev-key" },
    });
    expect(stderr.replace(/^.*ExperimentalWarning.*\n|^\(Use `node --trace-warnings.*\n/gm, "")).toBe("");
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toBe('runSync: COMPLETED {"prompt":"hello"}');
    expect(lines.slice(1, 4)).toEqual(['chunk: "first"', 'chunk: "second"', 'chunk: "third"']);
    expect(lines[4]).toMatch(/^run: COMPLETED after \d+ ms in the queue$/);
    expect(lines[5]).toBe("cancel: CANCELLED");
    expect(lines[6]).toMatch(/^health: [1-9]\d* completed, \d+ worker\(s\) up$/);
    expect(lines[7]).toMatch(/^requests: \S+ CANCELLED, \S+ COMPLETED, \S+ COMPLETED$/);
    expect(lines).toHaveLength(8);
  });
});
