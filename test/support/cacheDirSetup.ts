/**
 * Vitest setup file: each test file keeps what the package remembers from one process to the next
 * (the rate-limit windows, client/rateLimitMemory.ts) in a directory of its own, removed after it.
 * No test reads what another left (an emulator on a port used before, with the same key, is
 * another service), and none writes into the user's cache. The engine tests' CLI and provider
 * processes inherit the setting with the environment.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll } from "vitest";
import { CACHE_DIR_ENV } from "../../client/rateLimitMemory";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpucloud-cache-"));
process.env[CACHE_DIR_ENV] = dir;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
