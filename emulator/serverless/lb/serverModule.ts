/**
 * Where a load-balancing worker's HTTP server comes from: the built-in echo server, or a user
 * module mapped to the image through options.handlers (`--handler IMAGE=./server.js`, the same map
 * queue handlers use; exact imageName first, then without its tag).
 *
 * A server module exports a Node request listener `(req, res) => void | Promise<void>`, as one of
 * (first match wins):
 *   module.exports = (req, res) => {...}      (CommonJS)
 *   export default function (req, res) {...}   (ESM, or TypeScript compiled to CommonJS)
 *   export const listener = ... / export const server = ...   (a named function export)
 * A module exporting `handler` (and no listener) is a queue handler; mapping one to a
 * load-balancing endpoint is a worker start error saying so. Modules are loaded with Node's own
 * `require` (.js/.cjs, ESM without top-level await, erasable-syntax .ts) once, when the first
 * worker using them starts, and cached: module state is shared by every worker of every endpoint
 * that maps to the module.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import * as path from "node:path";
import { lookupByImage } from "../images";
import { echoListener } from "./echoServer";

export type LbListener = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface LbServerSource {
  /** "built-in echo server" or the module's absolute path, for messages. */
  readonly description: string;
  /** The listener, or throws an Error saying why the module cannot serve. */
  load(): LbListener;
}

const nodeRequire = createRequire(path.join(process.cwd(), "noop.js"));

const ECHO: LbServerSource = { description: "built-in echo server", load: () => echoListener };

const SHAPES =
  "export a request listener (req, res) => ... as module.exports, as the default export, or as a named export `listener` or `server`";

function fn(v: unknown): LbListener | undefined {
  return typeof v === "function" ? (v as LbListener) : undefined;
}

function prop(v: unknown, key: string): unknown {
  return typeof v === "object" || typeof v === "function" ? (v as Record<string, unknown> | null)?.[key] : undefined;
}

/** Finds the listener among a module's exports; throws a clear Error when there is none. */
export function listenerOf(mod: unknown, abs: string, imageName: string): LbListener {
  const found = fn(mod) ?? fn(prop(mod, "default")) ?? fn(prop(mod, "listener")) ?? fn(prop(mod, "server"));
  if (found) return found;
  if (fn(prop(mod, "handler")) ?? fn(prop(prop(mod, "default"), "handler"))) {
    throw new Error(
      `module ${abs} (image ${imageName}) exports handler(job, ctx), a queue handler; a load-balancing endpoint runs an HTTP server instead: ${SHAPES}`,
    );
  }
  throw new Error(`module ${abs} (image ${imageName}) exports no request listener; ${SHAPES}`);
}

function userSource(imageName: string, modulePath: string): LbServerSource {
  const abs = path.resolve(modulePath);
  let loaded: LbListener | Error | undefined;
  return {
    description: abs,
    load(): LbListener {
      if (loaded === undefined) {
        try {
          loaded = listenerOf(nodeRequire(abs) as unknown, abs, imageName);
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          loaded = new Error(msg.startsWith("module ") ? msg : `module ${abs} (image ${imageName}) could not be loaded: ${msg}`);
        }
      }
      if (loaded instanceof Error) throw loaded;
      return loaded;
    },
  };
}

/** One source per module path, shared by every endpoint whose image maps to it. */
export class LbServerRegistry {
  private readonly sources = new Map<string, LbServerSource>();

  constructor(private readonly map: Record<string, string>) {}

  serverFor(imageName: string): LbServerSource {
    const modulePath = lookupByImage(this.map, imageName);
    if (modulePath === undefined) return ECHO;
    let s = this.sources.get(modulePath);
    if (!s) {
      s = userSource(imageName, modulePath);
      this.sources.set(modulePath, s);
    }
    return s;
  }
}
