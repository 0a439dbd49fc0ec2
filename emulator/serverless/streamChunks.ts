/**
 * Stream items are capped in size (1 MiB by default). A bigger output is cut into several items:
 * a string into consecutive substrings; any other value into consecutive pieces of its JSON text
 * (the reader joins the pieces and parses them).
 */
import { jsonText } from "../http/respond";

/** The output as one or more stream items, each at most `maxBytes` of UTF-8 when serialized. */
export function splitOutput(output: unknown, maxBytes: number): unknown[] {
  if (typeof output === "string") {
    if (output.length * 3 <= maxBytes || Buffer.byteLength(output) <= maxBytes) return [output];
    return splitString(output, maxBytes);
  }
  // Small values (numbers, short objects) skip serialization for the size check.
  if (output === null || typeof output !== "object") return [output];
  const json = jsonText(output);
  if (json === undefined || Buffer.byteLength(json) <= maxBytes) return [output];
  return splitString(json, maxBytes);
}

function splitString(s: string, maxBytes: number): string[] {
  const out: string[] = [];
  const limit = Math.max(4, maxBytes);
  let start = 0;
  while (start < s.length) {
    let end = Math.min(s.length, start + limit);
    // Shrink until the piece fits in bytes (multi-byte characters take up to 3 bytes per UTF-16 unit).
    while (Buffer.byteLength(s.slice(start, end)) > limit) {
      const over = Buffer.byteLength(s.slice(start, end)) - limit;
      end -= Math.max(1, Math.ceil(over / 3));
    }
    // Never cut a surrogate pair in half.
    const code = s.charCodeAt(end - 1);
    if (end < s.length && code >= 0xd800 && code <= 0xdbff) end--;
    out.push(s.slice(start, end));
    start = end;
  }
  return out;
}
