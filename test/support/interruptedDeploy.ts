/**
 * A deploy killed as a CI runner is killed, and what it left (test/engine/interrupted-deploy.test.ts):
 * the deploying process (deployDriver.mts) started as a process group of its own, the group's
 * processes read from /proc (Linux), the stack's checkpoint as the file backend wrote it, the
 * service's resources as its v2 API lists them, and the `pulumi` CLI run as a user runs it.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** What one driver run does (its first argument, as JSON). */
export interface DriverArgs {
  op: "up" | "preview" | "destroy";
  /** Directory of the `pulumi` binary. */
  binDir: string;
  /** The project directory (holds node_modules, a link to this checkout's). */
  workDir: string;
  /** The environment of the CLI and of the processes it starts (backend, PULUMI_HOME, PATH, ...). */
  env: Record<string, string>;
  backendUrl: string;
  projectName: string;
  stackName: string;
  apiUrl: string;
  serverlessUrl: string;
  apiKey: string;
  registryPassword: string;
  secretValue: string;
  /** The account's SSH key, an authorized_keys line. */
  sshKey: string;
  names: DeclaredNames;
}

/** The service-side names of what the program declares, by kind. */
export interface DeclaredNames {
  registry: string;
  secret: string;
  networkVolume: string;
  podTemplate: string;
  workerTemplate: string;
  pod: string;
  endpoint: string;
}

/** The kind of each declared name, as serviceInventory names the kinds. */
export const KIND_OF: Readonly<Record<keyof DeclaredNames, ServiceKind>> = {
  registry: "registry",
  secret: "secret",
  networkVolume: "networkVolume",
  podTemplate: "template",
  workerTemplate: "template",
  pod: "pod",
  endpoint: "endpoint",
};

/** The driver's last line: how its operation ended. */
export interface DriverResult {
  op: DriverArgs["op"];
  ok: boolean;
  /** The engine's error diagnostics (and the operation's error when it has none). */
  errors: string[];
  /** Operations carried out or planned, other than "same". */
  changes: Record<string, number>;
}

/** Precedes the driver's result line (deployDriver.mts writes it). */
export const RESULT_MARKER = "@@driver-result ";

const DRIVER = path.join(__dirname, "deployDriver.mts");

export interface DriverRun {
  child: ChildProcess;
  /** The driver's pid: the id of its process group and of its session. */
  pgid: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves when the driver has exited (or was killed). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its result line, once it printed one. */
  result(): DriverResult | undefined;
}

/**
 * Starts the driver with this process's Node, detached: a session and a process group of its own
 * (the session's id and the group's are its pid). The `pulumi` CLI it starts is in its group; the
 * plugins the CLI starts (the dynamic provider host) are in its session, each in a group of its own.
 */
export function startDriver(args: DriverArgs): DriverRun {
  const child = spawn(process.execPath, [DRIVER, JSON.stringify(args)], {
    cwd: args.workDir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...args.env },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("the driver did not start");
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    pgid: pid,
    output: () => out,
    exited,
    result() {
      const line = out.split("\n").find((l) => l.startsWith(RESULT_MARKER));
      return line === undefined ? undefined : (JSON.parse(line.slice(RESULT_MARKER.length)) as DriverResult);
    },
  };
}

/** Runs the driver to its end; fails unless it printed a result. */
export async function runDriver(args: DriverArgs): Promise<{ result: DriverResult; output: string }> {
  const run = startDriver(args);
  const { code, signal } = await run.exited;
  const result = run.result();
  if (!result) throw new Error(`the driver (${args.op}) ended (code ${code}, signal ${signal}) without a result:\n${run.output()}`);
  return { result, output: run.output() };
}

/** One process as /proc describes it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id. */
  sid: number;
  /** R, S, D, T (stopped), Z (zombie), ... */
  state: string;
  /** Start time in clock ticks since boot: with the pid, it names one process (pids are reused). */
  startTime: string;
  command: string;
}

function processInfo(pid: number): ProcessInfo | undefined {
  let stat: string;
  let command = "";
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ..."; comm may hold blanks and parentheses: split after the last ")".
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    pid,
    state: fields[0] ?? "?",
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: fields[19] ?? "?",
    command: command || stat.slice(stat.indexOf("(") + 1, close),
  };
}

/** Every process on the machine (Linux). */
export function allProcesses(): ProcessInfo[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => processInfo(Number(entry)))
    .filter((p): p is ProcessInfo => p !== undefined);
}

/**
 * The processes of a deploy started by startDriver: those of the driver's session (the driver, the
 * CLI, and the plugins the CLI starts, each in a process group of its own), and every descendant of
 * them wherever it went.
 */
export function deployProcesses(sid: number): ProcessInfo[] {
  const all = allProcesses();
  const found = new Map<number, ProcessInfo>();
  for (const p of all) if (p.sid === sid) found.set(p.pid, p);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/**
 * Sends a signal to every process group of these processes, as a runner's kill reaches everything
 * a job started (the driver's group alone would leave the provider host, in a group of its own).
 */
export function signalGroups(processes: readonly ProcessInfo[], signal: NodeJS.Signals): void {
  for (const pgid of new Set(processes.map((p) => p.pgid))) {
    try {
      process.kill(-pgid, signal);
    } catch {
      // The group is gone.
    }
  }
}

/** Those of `processes` that still run (the same process, not a zombie). */
export function survivors(processes: readonly ProcessInfo[]): ProcessInfo[] {
  return processes.flatMap((p) => {
    const now = processInfo(p.pid);
    return now && now.startTime === p.startTime && now.state !== "Z" ? [now] : [];
  });
}

/** A resource the service holds, by the v2 API's lists. */
export type ServiceKind = "pod" | "endpoint" | "template" | "networkVolume" | "registry" | "secret" | "sshKey";
export interface ServiceItem {
  kind: ServiceKind;
  name: string;
  /** The service's id (an SSH key's is the key itself). */
  id: string;
}

/** GET a v2 list, following its pages. */
async function listAll(apiUrlV2: string, apiKey: string, route: string, field: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const url = `${apiUrlV2}${route}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
    if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as Record<string, unknown>;
    items.push(...((body[field] as Record<string, unknown>[] | undefined) ?? []));
    const pagination = body["pagination"] as { nextCursor?: string | null; hasNextPage?: boolean } | undefined;
    if (!pagination?.hasNextPage || !pagination.nextCursor) return items;
    cursor = pagination.nextCursor;
  }
  throw new Error(`GET ${route}: more than 1000 pages`);
}

/**
 * Everything the account holds, over the v2 API. An endpoint's own copy of its template
 * ("<name> (endpoint <id>)", made and deleted with it) is part of the endpoint, not listed.
 */
export async function serviceInventory(apiUrlV2: string, apiKey: string): Promise<ServiceItem[]> {
  const [pods, endpoints, templates, volumes, registries, secrets, sshKeys] = await Promise.all([
    listAll(apiUrlV2, apiKey, "/pods", "pods"),
    listAll(apiUrlV2, apiKey, "/serverless", "endpoints"),
    listAll(apiUrlV2, apiKey, "/templates", "templates"),
    listAll(apiUrlV2, apiKey, "/network-volumes", "networkVolumes"),
    listAll(apiUrlV2, apiKey, "/registries", "registries"),
    listAll(apiUrlV2, apiKey, "/account/secrets", "secrets"),
    fetch(`${apiUrlV2}/account/ssh-keys`, { headers: { authorization: `Bearer ${apiKey}` } }).then(async (res) => {
      if (res.status !== 200) throw new Error(`GET /account/ssh-keys: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { keys: string[] }).keys;
    }),
  ]);
  const item = (kind: ServiceKind) => (r: Record<string, unknown>) => ({ kind, name: String(r["name"]), id: String(r["id"]) });
  const endpointCopies = new Set(endpoints.map((e) => `${String(e["name"])} (endpoint ${String(e["id"])})`));
  return [
    ...pods.map(item("pod")),
    ...endpoints.map(item("endpoint")),
    ...templates.filter((t) => !endpointCopies.has(String(t["name"]))).map(item("template")),
    ...volumes.map(item("networkVolume")),
    ...registries.map(item("registry")),
    ...secrets.map(item("secret")),
    ...sshKeys.map((key) => ({ kind: "sshKey" as const, name: key, id: key })),
  ];
}

/** What the stack's checkpoint holds: its resources' ids, and the operations it records as pending. */
export interface CheckpointView {
  ids: Set<string>;
  pending: { type: string; urn: string }[];
}

/**
 * The stack's checkpoint as the file backend last wrote it (`<state>/.pulumi/stacks/<project>/<stack>.json`);
 * undefined before the first write.
 */
export function readCheckpoint(stateDir: string, projectName: string, stackName: string): CheckpointView | undefined {
  const file = path.join(stateDir, ".pulumi", "stacks", projectName, `${stackName}.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  const latest = (parsed as { checkpoint?: { latest?: { resources?: { id?: string }[]; pending_operations?: unknown[] } } }).checkpoint
    ?.latest;
  const pending = (latest?.pending_operations ?? []) as { type?: string; resource?: { urn?: string } }[];
  return {
    ids: new Set((latest?.resources ?? []).map((r) => r.id ?? "").filter((id) => id !== "")),
    pending: pending.map((p) => ({ type: String(p.type), urn: String(p.resource?.urn) })),
  };
}

/**
 * The backend's metadata files that are empty at this moment: a write the CLI had begun and not
 * finished. The file backend writes a blob's data atomically (a temporary file, then a rename) but
 * its `.attrs` sidecar in place (truncate, then write), so a kill that lands between the two leaves
 * an empty sidecar, and every later command on the stack fails with `failed to load checkpoint: EOF`
 * until it is deleted (docs/interrupted-deploys.md says so to users). That is the CLI's own window,
 * not this package's, so a kill point is not taken while one is open.
 */
export function halfWrittenBackendFiles(stateDir: string): string[] {
  const root = path.join(stateDir, ".pulumi");
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".attrs") && fs.statSync(full, { throwIfNoEntry: false })?.size === 0) found.push(full);
    }
  };
  walk(root);
  return found;
}

/** Runs the `pulumi` CLI as a user does, in the project directory, with the backend's environment. */
export function runPulumi(
  binDir: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(binDir, "pulumi"),
      [...args],
      { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}
