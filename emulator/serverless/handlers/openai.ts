/**
 * What the built-in handler answers to /openai/* jobs, so an OpenAI-compatible client pointed at the
 * emulator gets a well-formed body: a chat completion that echoes the last user message, a
 * completion that echoes the prompt, a model list; any other route echoes the request. A request
 * with `"stream": true` gets the same answer as OpenAI-style chunks (openaiChunks), one per word.
 */
import { openaiJobInput } from "../openaiRequest";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (isObject(m) && m["role"] === "user") {
      const c = m["content"];
      return typeof c === "string" ? c : JSON.stringify(c);
    }
  }
  return "";
}

export function openaiOutput(route: string, body: unknown, jobId: string, nowMs: number): unknown {
  const req = isObject(body) ? body : {};
  const model = typeof req["model"] === "string" ? req["model"] : "emulator-echo";
  const created = Math.floor(nowMs / 1000);
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  if (route === "/v1/chat/completions") {
    return {
      id: `chatcmpl-${jobId}`,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: lastUserText(req) }, finish_reason: "stop" }],
      usage,
    };
  }
  if (route === "/v1/completions") {
    const prompt = req["prompt"];
    return {
      id: `cmpl-${jobId}`,
      object: "text_completion",
      created,
      model,
      choices: [{ index: 0, text: typeof prompt === "string" ? prompt : JSON.stringify(prompt ?? ""), finish_reason: "stop" }],
      usage,
    };
  }
  if (route === "/v1/models") {
    return { object: "list", data: [{ id: model, object: "model", created, owned_by: "emulator" }] };
  }
  return openaiJobInput(route, body);
}

/** The echoed text split into words, each keeping its trailing spaces, so the pieces join back to it. */
function pieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

/**
 * The streamed form of openaiOutput: for chat, a role chunk, one `chat.completion.chunk` per word
 * and a last chunk with `finish_reason`; for completions, one `text_completion` chunk per word and
 * the last with `finish_reason`; any other route, the whole answer as one chunk.
 */
export function openaiChunks(route: string, body: unknown, jobId: string, nowMs: number): unknown[] {
  const whole = openaiOutput(route, body, jobId, nowMs);
  if (!isObject(whole) || !Array.isArray(whole["choices"])) return [whole];
  const { id, created, model } = whole;
  const choice: unknown = whole["choices"][0];
  const frame = (object: string, piece: Record<string, unknown>, finish: string | null) => ({
    id,
    object,
    created,
    model,
    choices: [{ index: 0, ...piece, finish_reason: finish }],
  });
  if (route === "/v1/chat/completions") {
    const message = isObject(choice) && isObject(choice["message"]) ? choice["message"] : {};
    const content = typeof message["content"] === "string" ? message["content"] : "";
    const chunk = (delta: Record<string, unknown>, finish: string | null) => frame("chat.completion.chunk", { delta }, finish);
    return [chunk({ role: "assistant", content: "" }, null), ...pieces(content).map((p) => chunk({ content: p }, null)), chunk({}, "stop")];
  }
  const text = isObject(choice) && typeof choice["text"] === "string" ? choice["text"] : "";
  return [...pieces(text).map((p) => frame("text_completion", { text: p }, null)), frame("text_completion", { text: "" }, "stop")];
}
