/**
 * The user's documentation holds together: every relative link of README.md and docs/ reaches a
 * file of the repository (and a heading of it, for a `#anchor`), the package ships docs/ so the
 * README's links work in an installed copy too, and the README's quick start is the two command
 * lines that run the demo and the tests, the second being what CI (`.ci/run`) runs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const repoRoot = path.resolve(__dirname, "..", "..");

function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(repoRoot, "docs"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.posix.join("docs", file.split(path.sep).join("/")));
  return ["README.md", ...docs].sort();
}

/** The text outside fenced code blocks (a link inside one is an example, not a link). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, blanks as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(file: string): Set<string> {
  const text = prose(fs.readFileSync(path.join(repoRoot, file), "utf8"));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? "")));
}

/** Each relative link of a file: where it points in the repository, and its anchor. */
function linksOf(file: string): { target: string; anchor: string | undefined; text: string }[] {
  const text = prose(fs.readFileSync(path.join(repoRoot, file), "utf8"));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((href) => !/^[a-z]+:/.test(href))
    .map((href) => {
      const [where = "", anchor] = href.split("#");
      const target = where === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), where)).replace(/\/$/, "");
      return { target, anchor, text: href };
    });
}

describe("README.md and docs/", () => {
  const files = markdownFiles();

  it("links only to files and headings that exist", () => {
    expect(files).toContain("docs/job-client.md");
    const broken: string[] = [];
    for (const file of files) {
      for (const link of linksOf(file)) {
        if (!fs.existsSync(path.join(repoRoot, link.target))) broken.push(`${file}: ${link.text} (no ${link.target})`);
        else if (link.anchor !== undefined && link.target.endsWith(".md") && !anchorsOf(link.target).has(link.anchor))
          broken.push(`${file}: ${link.text} (no heading #${link.anchor} in ${link.target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("links every guide from the README or the docs index", () => {
    const linked = new Set([...linksOf("README.md"), ...linksOf("docs/README.md")].map((link) => link.target));
    const unlinked = files.filter((file) => file !== "README.md" && file !== "docs/README.md" && !linked.has(file));
    expect(unlinked).toEqual([]);
  });

  it("ships docs/ in the package, so the README's links work in an installed copy", () => {
    const manifest = z
      .object({ files: z.array(z.string()) })
      .parse(JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")));
    expect(manifest.files).toContain("docs");
    const shipped = (target: string) => manifest.files.some((entry) => target === entry || target.startsWith(`${entry}/`));
    const readmeLinks = linksOf("README.md").filter((link) => link.target !== "README.md");
    expect(readmeLinks.filter((link) => !shipped(link.target)).map((link) => link.text)).toEqual([]);
  });
});

describe("README's quick start", () => {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("\n## Quick start\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => (m[1] ?? "").split("\n"))
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");

  it("is two command lines: one runs the demo, one the tests", () => {
    expect(start).toBeGreaterThan(0);
    expect(commands).toEqual(["npm ci && npm run demo", "npm ci && npm test"]);
    const scripts = z
      .object({ scripts: z.record(z.string(), z.string()) })
      .parse(JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"))).scripts;
    expect(scripts["demo"]).toBeDefined();
    expect(scripts["test"]).toBeDefined();
  });

  it("gives the test command CI runs", () => {
    const ci = fs
      .readFileSync(path.join(repoRoot, ".ci", "run"), "utf8")
      .split("\n")
      .map((line) => line.trim());
    const [install, test] = (commands[1] ?? "").split(" && ");
    expect(ci.some((line) => line.startsWith(install ?? "?"))).toBe(true);
    expect(ci).toContain(test);
  });
});
