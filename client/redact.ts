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

// `API_KEY=abc`, `"password": "abc"`, `token: abc`: a name that says secret, then its value. A log
// line is free text a workload wrote (a worker may print its environment), so where no known value
// can be named this pattern catches the usual ways of printing one; it may hide a harmless value
// whose name merely contains one of the words, which costs less than a leaked credential.
const SECRET_ASSIGNMENT =
  /\b([A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|credential)s?["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s"',;]+)/gi;

/** A line of a workload's log with credentials hidden: known secrets, bearer tokens, and values assigned to secret-looking names. */
export function redactLogLine(text: string, secrets: readonly string[] = []): string {
  return redactText(text, secrets).replace(SECRET_ASSIGNMENT, (_match, name: string, value: string) =>
    value === REDACTED ? `${name}${value}` : `${name}${REDACTED}`,
  );
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
