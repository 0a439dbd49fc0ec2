// The router's hooks that `startEmulator` options expose (interceptor, onReply). Apart from
// router.ts, whose operation specs name zod schemas, so that the emulator's public declarations
// do not pull zod's types into a user's type check.
import type { IncomingMessage, ServerResponse } from "node:http";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * What an interceptor decided: `true` it has answered (or dropped the connection) itself, `false`
 * the operation runs as usual, `"lose-answer"` the operation runs (with all its effects) and then
 * the connection is destroyed instead of answering: the client cannot tell whether it happened;
 * an `InterceptPlan` the operation runs as the plan says (the management API only: the job API
 * takes the first three).
 */
export type InterceptResult = boolean | "lose-answer" | InterceptPlan;

/** How an operation runs when an interceptor changes when it is applied or what follows it. */
export interface InterceptPlan {
  /**
   * The request's body is read and checked against the operation's schemas at once (a request
   * that does not fit is answered at once), but the operation is applied only when this resolves
   * true, and then answered: whether or not the client is still connected, as a service that got a
   * request acts on it later. Resolving false: never (the emulator closed; the interceptor has cut
   * the connection).
   */
  applyWhen?: Promise<boolean> | undefined;
  /** Called with the operation's reply as soon as it has run, before it is saved or answered. */
  onRan?: ((reply: { status: number; body: unknown }) => void) | undefined;
}

/**
 * Fault-injection seam (emulator/faults builds on it): called after auth and, for most routes,
 * before the body is read (a route with a size limit checked before auth, POST /api/v2/pods, has
 * read its body by then).
 */
export type RouteInterceptor = (call: {
  operationId: string;
  method: Method;
  path: string;
  accountId: string;
  req: IncomingMessage;
  res: ServerResponse;
}) => InterceptResult | Promise<InterceptResult>;

/** An operation that ran to completion, whether its answer was sent or lost (see RouterOptions.onReply). */
export interface ReplyEvent {
  /** The surface that answered: the router's base path ("/v1", "/api/v2"). */
  basePath: string;
  operationId: string;
  method: Method;
  accountId: string;
  params: Readonly<Record<string, string>>;
  status: number;
  /** The JSON body the operation answered (undefined for 204 and text replies). */
  body: unknown;
  /** True when the answer was destroyed instead of sent ("lose-answer"). */
  lost: boolean;
}
