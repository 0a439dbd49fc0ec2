/**
 * A load-balancing worker's settings, read from the endpoint's env (template env overlaid by
 * endpoint env) like the service's workers read theirs: PORT (its HTTP server), PORT_HEALTH (the
 * port health checks go to) and HEALTH_CHECK_PATH. Validated with zod because env is user input;
 * a bad value is a worker start error that names the key, the value and the rule.
 *
 * In the emulator the ports are not listened on as given (every worker listens on an ephemeral
 * 127.0.0.1 port); they are recorded, and PORT_HEALTH === PORT means "health checks go to the same
 * server", otherwise to a second listener running the same request listener.
 */
import { z } from "zod";

export interface LbWorkerEnv {
  port: number;
  portHealth: number;
  healthCheckPath: string;
}

export const DEFAULT_PORT = 80;
export const DEFAULT_HEALTH_CHECK_PATH = "/ping";

function portSchema(key: string) {
  const error = `${key} must be a TCP port number between 1 and 65535`;
  return z.string().trim().regex(/^\d+$/, { error }).transform(Number).pipe(z.number().int().min(1, { error }).max(65535, { error }));
}

const PathSchema = z
  .string()
  .trim()
  .min(1, { error: "HEALTH_CHECK_PATH must be a path such as /ping" })
  .refine((p) => !/[\s?#]/.test(p), { error: "HEALTH_CHECK_PATH must be a path without spaces, query or fragment, such as /ping" })
  // "ping" and "/ping" mean the same path.
  .transform((p) => (p.startsWith("/") ? p : `/${p}`));

function read<T>(schema: z.ZodType<T, string>, env: Record<string, string>, key: string, fallback: T): T {
  const raw = env[key];
  if (raw === undefined || raw.trim() === "") return fallback;
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw new Error(`${r.error.issues[0]?.message ?? `${key} is invalid`}; got ${JSON.stringify(raw)} (endpoint or template env)`);
}

/** Throws an Error with a clear message when a value is invalid. */
export function lbWorkerEnv(env: Record<string, string>): LbWorkerEnv {
  return {
    port: read(portSchema("PORT"), env, "PORT", DEFAULT_PORT),
    portHealth: read(portSchema("PORT_HEALTH"), env, "PORT_HEALTH", DEFAULT_PORT),
    healthCheckPath: read(PathSchema, env, "HEALTH_CHECK_PATH", DEFAULT_HEALTH_CHECK_PATH),
  };
}
