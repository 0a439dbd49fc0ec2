/**
 * An /openai/* request as the job it becomes (NOTES.md, job API: the input is
 * `{"openai_route": "/v1/chat/completions", "openai_input": {...}}`), and whether its body asks for
 * a streamed answer. Shared by the route that submits the job, the answer that waits for it
 * (openaiStream.ts) and the built-in handler that runs it.
 */

/** The job input of an /openai request: the route after /openai and the body, when one was sent. */
export function openaiJobInput(route: string, body: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = { openai_route: route };
  if (body !== undefined) input["openai_input"] = body;
  return input;
}

/** The route and body of a job made from an /openai request, or undefined for any other job. */
export function openaiRequestOf(input: Readonly<Record<string, unknown>>): { route: string; body: unknown } | undefined {
  const route = input["openai_route"];
  return typeof route === "string" ? { route, body: input["openai_input"] } : undefined;
}

/** True when an /openai/* body asks for a streamed answer (`"stream": true`). */
export function wantsStream(body: unknown): boolean {
  return typeof body === "object" && body !== null && !Array.isArray(body) && (body as Record<string, unknown>)["stream"] === true;
}
