// Redaction of credentials from anything the client keeps or shows: error messages, URLs, headers.
// Errors travel far (Pulumi logs, CI output, state diagnostics), so every string that goes into an
// error passes through here first, with the API key listed as a secret.

export const REDACTED = "[redacted]";

// "Bearer abc", "Authorization: abc", "authorization=abc": whatever follows is a credential even
// when we do not know its value (for example a key echoed back by a proxy).
const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
const AUTH_FIELD = /\b(authorization["']?\s*[:=]\s*["']?)(?!Bearer\s)[^\s"',;]+/gi;

/** Replaces every occurrence of each secret, and any bearer token, with "[redacted]". */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // An empty secret would match everywhere; anything else is scrubbed however short it is,
    // because a readable message is worth less than a leaked key.
    if (secret.length > 0) out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER, `$1${REDACTED}`).replace(AUTH_FIELD, `$1${REDACTED}`);
}

/** Header map with Authorization (and any proxy credential) replaced and secrets scrubbed. */
export function redactHeaders(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const joined = typeof value === "string" ? value : value.join(", ");
    out[name] =
      lower === "authorization" || lower === "proxy-authorization" || lower === "cookie" || lower === "set-cookie"
        ? REDACTED
        : redactText(joined, secrets);
  }
  return out;
}

/** A URL reduced to path + query (no scheme, host or userinfo), with secrets scrubbed. */
export function redactUrl(pathAndQuery: string, secrets: readonly string[] = []): string {
  return redactText(pathAndQuery, secrets);
}

/** For messages about user-supplied URLs: drops any user:password@ part. */
export function stripUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, `$1${REDACTED}@`);
}
