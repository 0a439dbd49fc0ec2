// Extracting the service's own explanation from an error answer. The description documents no
// error schema; observed bodies are `{"error": "..."}` (with a `status` echo), `{"message": "..."}`
// (401s), validation lists (`{"detail": [{"loc": [...], "msg": "..."}]}` for rejected keys), or
// plain text from a proxy; the v2 API answers RFC 9457 problem+json `{title, status, detail,
// errors?}`. Whatever the shape, callers get one readable line.

const MAX_MESSAGE_CHARS = 500;

/** The service's message in an error body, or undefined if the body says nothing useful. */
export function parseErrorBody(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return clip(looksLikeHtml(trimmed) ? htmlTitle(trimmed) : trimmed);
  }
  const message = messageFrom(parsed);
  return message === undefined ? clip(trimmed) : clip(message);
}

function messageFrom(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (Array.isArray(value)) {
    const parts = value.map(messageFrom).filter((p): p is string => p !== undefined);
    return parts.length > 0 ? parts.join("; ") : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  // RFC 9457 problem+json (the v2 API): the detail, then each validation failure it lists.
  if (typeof record["title"] === "string" && typeof record["detail"] === "string") {
    const errors = Array.isArray(record["errors"]) ? record["errors"].filter((e): e is string => typeof e === "string") : [];
    return errors.length > 0 ? `${record["detail"]}: ${errors.join("; ")}` : record["detail"] || record["title"];
  }
  // Validation item: {"loc": ["body", "foo"], "msg": "extra fields not permitted"}.
  if (typeof record["msg"] === "string") {
    const loc = Array.isArray(record["loc"]) ? record["loc"].map(String).join(".") : undefined;
    return loc ? `${loc}: ${record["msg"]}` : record["msg"];
  }
  for (const key of ["error", "message", "detail", "errors", "error_description"]) {
    const found = messageFrom(record[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function looksLikeHtml(text: string): boolean {
  return /^<(!doctype|html)/i.test(text);
}

function htmlTitle(text: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  return title || "(HTML error page)";
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > MAX_MESSAGE_CHARS ? `${oneLine.slice(0, MAX_MESSAGE_CHARS)}...` : oneLine;
}
