/**
 * A container's command (pods, templates, endpoints): the exec-form arrays every record keeps
 * (`dockerEntrypoint`, `dockerStartCmd`, as /v1 sends them) and, on the service's current API,
 * `args` (the raw stored string) beside `cmd[]` and `entrypoint[]`.
 *
 * Reference (management-api-v2-today.md 5.1, the 2026-09 description of `args`): "The container's
 * command, as a single raw string. This is the field `entrypoint` and `cmd` encode into, exposed
 * in its stored form. Two shapes are accepted. A bare shell string is treated as CMD and split
 * into arguments [...]. A JSON object of the form {"entrypoint":[...],"cmd":[...]} sets either or
 * both explicitly. Responses always return both representations [...]. Supplying `args` together
 * with `entrypoint` or `cmd` is allowed only when they describe the same command [...]. Send ""
 * to clear, omit to leave unchanged." `cmd`/`entrypoint`: "Send [] to clear, omit to leave unchanged."
 *
 * The record keeps the exec-form arrays (dockerEntrypoint, dockerStartCmd, shared with /v1) and
 * the stored `args` string when one was sent. Assumptions (emulator/README.md): a conflict is a
 * 400 (the reference names no status; a cross-field rule is a 400 on createPod); a JSON `args`
 * without one of the keys clears that part; `args` encoded from arrays is the JSON form.
 */
import { isDeepStrictEqual } from "node:util";
import { invalid } from "./errors";

export interface Command {
  entrypoint: string[];
  cmd: string[];
}

/** A command as a request states it: v2's three fields (v1's two arrays are `entrypoint` and `cmd`). */
export interface CommandInput {
  args?: string | undefined;
  cmd?: string[] | undefined;
  entrypoint?: string[] | undefined;
}

/** What a record keeps of the command. */
export interface CommandRecord {
  dockerEntrypoint: string[];
  dockerStartCmd: string[];
  /** The raw `args` as sent through v2 (absent: encode it from the arrays). */
  args?: string | undefined;
}

/** Splits a shell string into words: blanks separate, quotes group, a backslash escapes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw invalid("args", `unterminated ${quote} quote in ${JSON.stringify(text)}; close it or send cmd as an array`);
  if (inWord) words.push(word);
  return words;
}

function stringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** The command a raw `args` string stands for. */
export function decodeArgs(args: string): Command {
  const trimmed = args.trim();
  if (trimmed === "") return { entrypoint: [], cmd: [] };
  if (trimmed.startsWith("{")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const { entrypoint = [], cmd = [], ...rest } = parsed as Record<string, unknown>;
      const unknownKeys = Object.keys(rest);
      if (unknownKeys.length > 0 || !stringArray(entrypoint) || !stringArray(cmd)) {
        throw invalid("args", `a JSON args must be {"entrypoint": [strings], "cmd": [strings]}, got ${JSON.stringify(args)}`);
      }
      return { entrypoint, cmd };
    }
  }
  return { entrypoint: [], cmd: shellWords(args) };
}

function safeDecode(args: string): Command | undefined {
  try {
    return decodeArgs(args);
  } catch {
    return undefined;
  }
}

/** The stored form of a command given as arrays: "" for none, else the JSON object form. */
export function encodeArgs(command: Command): string {
  if (command.entrypoint.length === 0 && command.cmd.length === 0) return "";
  return JSON.stringify({
    ...(command.entrypoint.length > 0 ? { entrypoint: command.entrypoint } : {}),
    ...(command.cmd.length > 0 ? { cmd: command.cmd } : {}),
  });
}

/** `args`, `cmd`, `entrypoint` of a response. */
export function commandView(record: CommandRecord): { args: string; cmd: string[]; entrypoint: string[] } {
  const command = { entrypoint: record.dockerEntrypoint, cmd: record.dockerStartCmd };
  // The stored string, unless /v1 changed the lists since (then it no longer describes them).
  const stored = record.args !== undefined && isDeepStrictEqual(safeDecode(record.args), command) ? record.args : undefined;
  return {
    args: stored ?? encodeArgs(command),
    cmd: [...record.dockerStartCmd],
    entrypoint: [...record.dockerEntrypoint],
  };
}

/**
 * The record fields a body's command sets, over `current` (what a PATCH leaves unchanged, or what
 * a create starts from: the template's command, or none). Undefined when the body names no command.
 */
export function commandChange(body: CommandInput, current: Command): Required<CommandRecord> | undefined {
  if (body.args === undefined && body.cmd === undefined && body.entrypoint === undefined) return undefined;
  if (body.args !== undefined) {
    const decoded = decodeArgs(body.args);
    for (const part of ["cmd", "entrypoint"] as const) {
      const given = body[part];
      if (given !== undefined && !isDeepStrictEqual(given, decoded[part])) {
        throw invalid(
          part,
          `${JSON.stringify(given)} does not describe the same command as args ${JSON.stringify(body.args)} (${part} ${JSON.stringify(decoded[part])}); send one of them, or both alike`,
        );
      }
    }
    return { dockerEntrypoint: decoded.entrypoint, dockerStartCmd: decoded.cmd, args: body.args };
  }
  const next = { entrypoint: body.entrypoint ?? current.entrypoint, cmd: body.cmd ?? current.cmd };
  return { dockerEntrypoint: [...next.entrypoint], dockerStartCmd: [...next.cmd], args: undefined };
}

/** The command a new record gets: the request's over `base`'s (a template's; none: no command), copied. */
export function commandOf(input: CommandInput, base: CommandRecord | undefined): Required<CommandRecord> {
  const current = { entrypoint: [...(base?.dockerEntrypoint ?? [])], cmd: [...(base?.dockerStartCmd ?? [])] };
  return commandChange(input, current) ?? { dockerEntrypoint: current.entrypoint, dockerStartCmd: current.cmd, args: base?.args };
}
