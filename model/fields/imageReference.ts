// The grammar of a container image reference, as registries and container engines read it:
//
//   reference  := name [ ":" tag ] [ "@" digest ]
//   name       := [ registry "/" ] path
//   registry   := host [ ":" port ]          host: DNS labels joined by ".", or [IPv6]; port: digits
//   path       := component ( "/" component )*
//   component  := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
//   tag        := [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//   digest     := algorithm ":" hex          sha256: 64 hex digits, sha512: 128; others 32 or more
//
// The first part of the name is the registry when it holds a "." or a ":", or is "localhost", and
// a path follows it; otherwise the name is a path on the default registry. The name is at most 255
// characters. There is no scheme (no "https://") and no blank anywhere.
//
// `imageReferenceProblem` says what is wrong with a reference and how to write it instead; it knows
// nothing of Pulumi or zod, so that the one rule can be used by every image argument's validator
// (`image` in ./validation) and tested on its own.

/** What is wrong with an image reference: the part and the fix, for a message after the value. */
export interface ImageReferenceProblem {
  /** The wrong part and why, e.g. `the tag after ":" is empty`. */
  part: string;
  /** What to write instead, e.g. `give a tag, e.g. "acme/worker:latest", or drop the ":"`. */
  fix: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DNS_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;
const ALGORITHM = /^[A-Za-z][A-Za-z0-9]*(?:[+._-][A-Za-z][A-Za-z0-9]*)*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** Hex digits a digest of these algorithms has; others need at least 32. */
const DIGEST_LENGTH: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };
const MAX_NAME_LENGTH = 255;
const EXAMPLE = '"registry.example.com/acme/worker:1.2.3"';

const q = (text: string): string => JSON.stringify(text);

/**
 * A reference's parts: `registry:5000/team/app:1.2@sha256:...` is the repository
 * `registry:5000/team/app`, the tag `1.2` and the digest `sha256:...`. The tag follows the first ':'
 * after the last '/' (a ':' before it is a registry's port). Parts only: imageReferenceProblem says
 * whether they are well formed.
 */
export function splitImageReference(reference: string): { repository: string; tag?: string; digest?: string } {
  const at = reference.indexOf("@");
  const beforeDigest = at < 0 ? reference : reference.slice(0, at);
  const colon = beforeDigest.indexOf(":", beforeDigest.lastIndexOf("/") + 1);
  return {
    repository: colon < 0 ? beforeDigest : beforeDigest.slice(0, colon),
    ...(colon >= 0 ? { tag: beforeDigest.slice(colon + 1) } : {}),
    ...(at >= 0 ? { digest: reference.slice(at + 1) } : {}),
  };
}

/** The problem with `reference` as a container image reference, or undefined when it is well formed. */
export function imageReferenceProblem(reference: string): ImageReferenceProblem | undefined {
  const trimmed = reference.trim();
  if (trimmed === "") return { part: "it is blank", fix: `give an image, e.g. ${EXAMPLE}` };
  if (/\s/.test(reference)) return blanks(reference, trimmed);
  const scheme = SCHEME.exec(reference);
  if (scheme) {
    return {
      part: `it starts with the scheme ${q(scheme[0])}, which image references do not have`,
      fix: `drop it: ${q(reference.slice(scheme[0].length))}`,
    };
  }
  const { repository: name, tag, digest } = splitImageReference(reference);
  const beforeDigest = digest === undefined ? reference : reference.slice(0, reference.indexOf("@"));
  if (digest !== undefined) {
    const problem = digestProblem(digest, beforeDigest);
    if (problem) return problem;
  }
  if (tag !== undefined) {
    const problem = tagProblem(tag, name, reference.slice(beforeDigest.length));
    if (problem) return problem;
  }
  return nameProblem(name, reference);
}

function blanks(reference: string, trimmed: string): ImageReferenceProblem {
  const where =
    reference !== trimmed
      ? reference.startsWith(trimmed)
        ? "at the end"
        : reference.endsWith(trimmed)
          ? "at the start"
          : "around it"
      : "inside it";
  const fixed = reference.replace(/\s+/g, "");
  return { part: `it has a blank ${where}; image references have none`, fix: `remove it: ${q(fixed)}` };
}

function digestProblem(digest: string, name: string): ImageReferenceProblem | undefined {
  const fix = (what: string): string =>
    `write ${what}, as the registry reports it, e.g. ${q(`${name}@sha256:${"0123456789abcdef".repeat(4)}`)}`;
  if (digest.includes("@"))
    return { part: `it has more than one "@"`, fix: `give one digest after a single "@"; ${fix('"sha256:" and 64 hex digits')}` };
  const colon = digest.indexOf(":");
  if (digest === "") return { part: `the digest after "@" is empty`, fix: `drop the "@", or ${fix('"sha256:" and 64 hex digits')}` };
  const algorithm = colon < 0 ? "" : digest.slice(0, colon);
  const hex = colon < 0 ? digest : digest.slice(colon + 1);
  if (!ALGORITHM.test(algorithm)) {
    return { part: `the digest ${q(digest)} does not start with an algorithm such as "sha256:"`, fix: fix('"sha256:" and 64 hex digits') };
  }
  const expected = DIGEST_LENGTH[algorithm];
  const hexOk = expected === undefined ? /^[0-9a-fA-F]{32,}$/.test(hex) : new RegExp(`^[0-9a-f]{${expected}}$`).test(hex);
  if (!hexOk) {
    const wanted = expected === undefined ? "32 or more hex digits" : `${expected} hex digits (0-9, a-f)`;
    return {
      part: `the digest ${q(digest)} is not a ${algorithm} digest: ${algorithm} takes ${wanted}`,
      fix: fix(`"${algorithm}:" and ${wanted}`),
    };
  }
  return undefined;
}

function tagProblem(tag: string, name: string, digest: string): ImageReferenceProblem | undefined {
  if (tag.includes(":")) {
    const rest = tag.replace(/^:+/, "");
    const example = rest !== "" && TAG.test(rest) ? `${name}:${rest}${digest}` : `${name}:1.2.3`;
    return {
      part: `it has more than one ":" after the name ${q(name)}`,
      fix: `write a single ":" between the name and the tag, e.g. ${q(example)}`,
    };
  }
  if (tag === "") {
    return { part: `the tag after ":" is empty`, fix: `give a tag, e.g. ${q(`${name}:latest${digest}`)}, or drop the ":"` };
  }
  if (!TAG.test(tag)) {
    return {
      part: `the tag ${q(tag)} is not valid`,
      fix: "a tag is 1 to 128 letters, digits, _, . and -, not starting with . or -, e.g. 1.2.3",
    };
  }
  return undefined;
}

function nameProblem(name: string, reference: string): ImageReferenceProblem | undefined {
  if (name.length > MAX_NAME_LENGTH) {
    return { part: `the name is ${name.length} characters long`, fix: `registries take at most ${MAX_NAME_LENGTH}; shorten it` };
  }
  const parts = name.split("/");
  const first = parts[0] ?? "";
  const hasRegistry = parts.length > 1 && (first.includes(".") || first.includes(":") || first === "localhost");
  if (hasRegistry) {
    const problem = registryProblem(first);
    if (problem) return problem;
  }
  const path = hasRegistry ? parts.slice(1) : parts;
  const pathText = path.join("/");
  if (path.some((component) => component === "")) {
    return {
      part: name === "" ? "the image name is empty" : `the path ${q(pathText)} has an empty part (a leading, trailing or doubled "/")`,
      fix: name === "" ? `put the name before the tag or digest, e.g. ${EXAMPLE}` : 'write one "/" between parts, e.g. "acme/worker"',
    };
  }
  if (path.some((component) => component !== component.toLowerCase())) {
    const lowered = reference.replace(pathText, pathText.toLowerCase());
    return {
      part: `the path ${q(pathText)} has upper-case letters, which image paths do not allow`,
      fix: `write it in lower case: ${q(lowered)}`,
    };
  }
  const wrong = path.find((component) => !COMPONENT.test(component));
  if (wrong !== undefined) {
    return {
      part: `the path part ${q(wrong)} is not valid`,
      fix: 'a path part is lower-case letters and digits, joined by ".", "_", "__" or "-", e.g. "acme/worker-gpu"',
    };
  }
  return undefined;
}

function registryProblem(registry: string): ImageReferenceProblem | undefined {
  const fix = 'a registry is a host name, optionally with ":<port>", e.g. "registry.example.com" or "localhost:5000"';
  const ipv6End = registry.startsWith("[") ? registry.indexOf("]") + 1 : 0;
  const colon = registry.indexOf(":", ipv6End);
  const host = colon < 0 ? registry : registry.slice(0, colon);
  if (colon >= 0) {
    const port = registry.slice(colon + 1);
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
      return { part: `the registry port ${q(port)} is not a port number`, fix: `${fix}, the port 1 to 65535` };
    }
  }
  const hostOk = IPV6.test(host) || (host !== "" && host.split(".").every((label) => DNS_LABEL.test(label)));
  if (!hostOk) return { part: `the registry host ${q(host)} is not a host name`, fix };
  return undefined;
}
