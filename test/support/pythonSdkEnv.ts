/**
 * A Python virtual environment with Pulumi's Python SDK (the `pulumi` package from PyPI, at the
 * version of this package's @pulumi/pulumi, so that it matches the CLI) and the generated SDK of the
 * provider plugin (sdks/python), for tests that run Python programs.
 *
 * It is made once per machine, outside the repo, like the CLI build: under
 * ${GPUCLOUD_TOOLS_CACHE:-$XDG_CACHE_HOME/pulumi-gpucloud}/python-sdk-venv-<key>, the key naming the
 * interpreter and the `pulumi` version. The generated SDK is installed again whenever its files
 * changed (their digest is kept in the environment), from a copy so that the build leaves nothing
 * in the checkout. Concurrent first runs (several checkouts, several test files) wait for each other.
 *
 * With no usable Python (>= 3.9, with venv and pip) it throws, saying what to install: the tests that
 * need it fail rather than skip.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "..", "..");
const SDK_DIR = path.join(repoRoot, "sdks", "python");
/** The oldest Python the generated SDK supports (its setup.py's python_requires). */
const MIN_PYTHON: readonly [number, number] = [3, 9];
/** Interpreters tried in order: the one the project names first (3.11 is on every reference machine). */
const CANDIDATES = ["python3.11", "python3", "python"];
/** Files of a build or of Python itself in the SDK's directory: not part of the SDK. */
const NOT_SDK = new Set(["build", "dist", "__pycache__"]);

const INSTALL_HELP =
  "Install Python 3.9 or later with its venv module and pip (Debian/Ubuntu: `apt install python3 python3-venv python3-pip`; " +
  "macOS: `brew install python@3.11`; Windows: the python.org installer), put it on PATH as python3.11 or python3, " +
  "or set GPUCLOUD_PYTHON to its interpreter. pip needs to reach PyPI the first time.";

export interface PythonSdkEnv {
  /** The environment's interpreter, which imports `pulumi` and `pulumi_gpucloud`. */
  python: string;
  /** The interpreter it was made from, e.g. "3.11.7 (/usr/bin/python3.11)". */
  base: string;
  /** What this call did and how long it took, e.g. "made the environment (41.2 s), installed the SDK (6.0 s)". */
  did: string;
}

export async function ensurePythonSdkEnv(): Promise<PythonSdkEnv> {
  const pulumiVersion = pulumiPin();
  const interpreter = await findPython();
  const key = createHash("sha256").update(`${interpreter.executable}\0${interpreter.version}\0pulumi==${pulumiVersion}`).digest("hex");
  const dir = path.join(cacheRoot(), `python-sdk-venv-${key.slice(0, 16)}`);
  const python = process.platform === "win32" ? path.join(dir, "Scripts", "python.exe") : path.join(dir, "bin", "python");
  const steps: string[] = [];
  const timed = async (what: string, step: () => Promise<unknown>) => {
    const started = Date.now();
    await step();
    steps.push(`${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };

  await withLock(`${dir}.lock`, async () => {
    const ready = path.join(dir, ".gpucloud-ready");
    const sdkMark = path.join(dir, ".gpucloud-sdk");
    const sdk = sdkDigest();
    if (!fs.existsSync(ready)) {
      fs.rmSync(dir, { recursive: true, force: true });
      await timed("made the environment", async () => {
        await step(interpreter.executable, ["-m", "venv", dir], "make a virtual environment (`python -m venv`)");
        await withSdkCopy((copy) => pip(python, ["install", `pulumi==${pulumiVersion}`, copy]));
      });
      fs.writeFileSync(sdkMark, sdk);
      fs.writeFileSync(ready, `pulumi==${pulumiVersion}\n`);
    } else if (readOr(sdkMark) !== sdk) {
      // Its requirements are installed already; pip would otherwise keep an SDK of the same version.
      await timed("installed the changed SDK", () =>
        withSdkCopy((copy) => pip(python, ["install", "--no-deps", "--force-reinstall", copy])),
      );
      fs.writeFileSync(sdkMark, sdk);
    }
  });
  return { python, base: `${interpreter.version} (${interpreter.executable})`, did: steps.join(", ") || "reused the environment" };
}

/** The @pulumi/pulumi version this package pins, which is the CLI's too. */
function pulumiPin(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const pin = manifest.dependencies["@pulumi/pulumi"];
  if (!pin || !/^\d+\.\d+\.\d+$/.test(pin)) throw new Error(`package.json: @pulumi/pulumi should be pinned to one version, not ${pin}`);
  return pin;
}

function cacheRoot(): string {
  return (
    process.env["GPUCLOUD_TOOLS_CACHE"] ?? path.join(process.env["XDG_CACHE_HOME"] ?? path.join(os.homedir(), ".cache"), "pulumi-gpucloud")
  );
}

async function findPython(): Promise<{ executable: string; version: string }> {
  const named = process.env["GPUCLOUD_PYTHON"];
  const tried: string[] = [];
  for (const candidate of named ? [named] : CANDIDATES) {
    try {
      const { stdout } = await run(candidate, ["-c", "import sys; print(sys.version.split()[0]); print(sys.executable)"], {
        timeout: 60_000,
      });
      const [version = "", executable = ""] = stdout.trim().split("\n");
      const [major = 0, minor = 0] = version.split(".").map(Number);
      if (major > MIN_PYTHON[0] || (major === MIN_PYTHON[0] && minor >= MIN_PYTHON[1])) return { executable, version };
      tried.push(`${candidate} is Python ${version}`);
    } catch (e) {
      tried.push(`${candidate}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : firstLine(e)}`);
    }
  }
  throw new Error(`No Python >= ${MIN_PYTHON.join(".")} to run the Python SDK's programs (${tried.join("; ")}). ${INSTALL_HELP}`);
}

async function pip(python: string, args: string[]): Promise<void> {
  await step(python, ["-m", "pip", "--disable-pip-version-check", "--no-input", ...args], `pip ${args.join(" ")}`);
}

async function step(command: string, args: string[], what: string): Promise<void> {
  try {
    await run(command, args, { timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const { stdout = "", stderr = "" } = e as { stdout?: string; stderr?: string };
    throw new Error(`could not ${what}:\n${`${stdout}\n${stderr}`.trim().slice(-4000)}\n${INSTALL_HELP}`, { cause: e });
  }
}

/** The SDK's files, by path and content: what decides whether the environment has the current one. */
function sdkDigest(): string {
  if (!fs.existsSync(path.join(SDK_DIR, "setup.py"))) throw new Error(`${SDK_DIR} holds no generated SDK: run \`npm run sdk:generate\``);
  const hash = createHash("sha256");
  for (const file of sdkFiles(SDK_DIR).sort()) {
    hash.update(`${path.relative(SDK_DIR, file).split(path.sep).join("/")}\0`);
    hash.update(fs.readFileSync(file));
  }
  return hash.digest("hex");
}

function sdkFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (!isSdkEntry(entry.name)) return [];
    return entry.isDirectory() ? sdkFiles(full) : [full];
  });
}

function isSdkEntry(name: string): boolean {
  return !NOT_SDK.has(name) && !name.endsWith(".egg-info");
}

/** pip builds a source directory in place: build from a copy, so the checkout stays as it is. */
async function withSdkCopy(use: (dir: string) => Promise<void>): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-python-sdk-"));
  try {
    const copy = path.join(tmp, "python");
    fs.cpSync(SDK_DIR, copy, { recursive: true, filter: (src) => isSdkEntry(path.basename(src)) });
    await use(copy);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Runs `body` holding a lock directory that other processes (other checkouts, other test files) wait on. */
async function withLock(lock: string, body: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 20 * 60_000;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (holderGone(lock)) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`waited 20 minutes for ${lock}: remove it if no test run is making the Python environment`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** A lock whose process has ended (or that never got its pid written, a while ago) is left over. */
function holderGone(lock: string): boolean {
  const pid = Number(readOr(path.join(lock, "pid")));
  if (!pid) return Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 10_000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function readOr(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
}
