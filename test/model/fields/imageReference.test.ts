import { describe, expect, it } from "vitest";
import { imageReferenceProblem } from "../../../model/fields/imageReference";
import { image } from "../../../model/fields/validation";
import { UNKNOWN } from "../../../model/fields/values";

const HEX64 = "0123456789abcdef".repeat(4);

describe("imageReferenceProblem: references the grammar takes", () => {
  const good = [
    "ubuntu",
    "ubuntu:22.04",
    "ghcr.io/acme/worker:1.2.3",
    "localhost:5000/a/b:tag",
    `registry.example.com:443/org/img@sha256:${HEX64}`,
    `img:tag@sha256:${HEX64}`,
    "example/pytorch:2.1.0",
    // values the examples and tests use
    "img:1",
    "img",
    "x",
    "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime",
    "example/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04",
    "registry.example/private:9",
    "python:3.12",
    // separators, upper-case tags, IPv6 and numeric registries, long digests of other algorithms
    "a/b__c/d-e.f--g:Latest_1",
    "[::1]:5000/a/b:1",
    "10.0.0.1:5000/team/app",
    "Registry.Example.COM/app",
    `app@sha512:${HEX64}${HEX64}`,
    `app@multihash+base58:${"a".repeat(32)}`,
    "localhost",
    "localhost:5000",
  ];
  it.each(good)("%s", (reference) => {
    expect(imageReferenceProblem(reference)).toBeUndefined();
  });
});

describe("imageReferenceProblem: what it refuses, the part and the fix", () => {
  const rows: [label: string, reference: string, part: string, fix: string][] = [
    [
      "doubled colon",
      "acme/worker::1.1",
      'more than one ":" after the name "acme/worker"',
      'a single ":" between the name and the tag, e.g. "acme/worker:1.1"',
    ],
    ["colon inside the tag", "a:b:c", 'more than one ":" after the name "a"', 'e.g. "a:1.2.3"'],
    ["upper-case path", "Acme/Worker:1", 'the path "Acme/Worker" has upper-case letters', 'write it in lower case: "acme/worker:1"'],
    ["upper-case after a registry", "ghcr.io/Acme/w:1", 'the path "Acme/w" has upper-case letters', '"ghcr.io/acme/w:1"'],
    ["scheme", "https://ghcr.io/acme/worker:1", 'the scheme "https://"', 'drop it: "ghcr.io/acme/worker:1"'],
    ["trailing space", "acme/worker:1 ", "a blank at the end", 'remove it: "acme/worker:1"'],
    ["leading space", " acme/worker:1", "a blank at the start", 'remove it: "acme/worker:1"'],
    ["inner space", "acme/ worker:1", "a blank inside it", 'remove it: "acme/worker:1"'],
    ["only blanks", "   ", "it is blank", "give an image"],
    ["empty tag", "acme/worker:", 'the tag after ":" is empty', 'give a tag, e.g. "acme/worker:latest", or drop the ":"'],
    ["tag starting with a dot", "acme/worker:.1", 'the tag ".1" is not valid', "not starting with . or -"],
    ["tag too long", `a:${"1".repeat(129)}`, "is not valid", "1 to 128 letters"],
    [
      "short digest",
      "acme/worker@sha256:xyz",
      'the digest "sha256:xyz" is not a sha256 digest: sha256 takes 64 hex digits',
      '"acme/worker@sha256:0123',
    ],
    ["upper-case sha256 hex", `a@sha256:${HEX64.toUpperCase()}`, "64 hex digits (0-9, a-f)", "as the registry reports it"],
    ["digest without algorithm", `a@${HEX64}`, "does not start with an algorithm", '"sha256:" and 64 hex digits'],
    ["empty digest", "a@", 'the digest after "@" is empty', 'drop the "@"'],
    ["two digests", `a@sha256:${HEX64}@sha256:${HEX64}`, 'more than one "@"', "a single"],
    ["doubled slash", "acme//worker", 'the path "acme//worker" has an empty part', 'one "/" between parts'],
    ["trailing slash", "acme/worker/", "has an empty part", 'one "/"'],
    ["no name", ":1", "the image name is empty", "put the name before the tag"],
    ["bad path character", "acme/work$er", 'the path part "work$er" is not valid', 'joined by ".", "_", "__" or "-"'],
    ["separator at the end", "acme/worker-:1", 'the path part "worker-" is not valid', "lower-case letters and digits"],
    ["bad registry port", "localhost:http/a", 'the registry port "http" is not a port number', '"localhost:5000"'],
    ["port out of range", "localhost:70000/a", 'the registry port "70000"', "1 to 65535"],
    ["bad registry host", "reg_istry.io/a", 'the registry host "reg_istry.io" is not a host name', '"registry.example.com"'],
    ["name too long", `a/${"b".repeat(260)}`, "the name is 262 characters long", "at most 255"],
  ];
  it.each(rows)("%s", (_label, reference, part, fix) => {
    const problem = imageReferenceProblem(reference);
    expect(problem?.part).toContain(part);
    expect(problem?.fix).toContain(fix);
  });
});

describe("image: the validator of every image argument", () => {
  const schema = image({ example: '"ghcr.io/acme/worker:1"' });
  const messageOf = (value: unknown): string | undefined => {
    const parsed = schema.safeParse(value);
    return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message).join("\n");
  };

  it("passes a well-formed reference through", () => {
    expect(schema.parse("ghcr.io/acme/worker:1")).toBe("ghcr.io/acme/worker:1");
  });

  it("lets a value unknown at preview through", () => {
    expect(schema.parse(UNKNOWN)).toBe(UNKNOWN);
  });

  it("names the value, the wrong part and the fix", () => {
    expect(messageOf("acme/worker::1.1")).toBe(
      '"acme/worker::1.1" is not a valid image reference: it has more than one ":" after the name "acme/worker"; ' +
        'write a single ":" between the name and the tag, e.g. "acme/worker:1.1"',
    );
  });

  it("refuses what is not a string, nothing and the empty string, each with an example", () => {
    expect(messageOf(42)).toBe('expected a string, got 42; give a container image reference, e.g. "ghcr.io/acme/worker:1"');
    expect(messageOf(undefined)).toBe('is required; set it, e.g. "ghcr.io/acme/worker:1"');
    expect(messageOf("")).toBe('must not be empty; set the container image, e.g. "ghcr.io/acme/worker:1"');
  });
});
