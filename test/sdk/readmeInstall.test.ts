/**
 * The README's install lines and its minimal project's package.json name this package as
 * package.json does: its name, a range that admits its version (`^<version>`), the exact
 * `@pulumi/pulumi` it depends on, and the Node.js and Pulumi versions it needs. Reads the two files
 * of the repository; no network.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const repoRoot = path.resolve(__dirname, "..", "..");
const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const manifest = z
  .object({
    name: z.string(),
    version: z.string(),
    dependencies: z.object({ "@pulumi/pulumi": z.string() }),
    engines: z.object({ node: z.string() }),
    scripts: z.record(z.string(), z.string()),
  })
  .parse(JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")));

/** The text of a README section, from its `## ` heading to the next. */
function section(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The code blocks of a section, with their language. */
function blocks(text: string): { language: string; body: string }[] {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ language: m[1] ?? "", body: m[2] ?? "" }));
}

/** The package specs of the `npm install <spec>...` lines of a section's shell blocks. */
function installSpecs(text: string): string[][] {
  return blocks(text)
    .filter((block) => block.language === "sh")
    .flatMap((block) => block.body.split("\n"))
    .filter((line) => /^npm (install|i) /.test(line))
    .map((line) =>
      line
        .replace(/#.*$/, "")
        .trim()
        .split(/\s+/)
        .slice(2)
        .filter((arg) => !arg.startsWith("-")),
    );
}

const wanted = `^${manifest.version}`;

describe("README's Install section", () => {
  const install = section("Install");
  const lines = installSpecs(install);
  const fromRegistry = lines.filter((specs) => specs.some((spec) => spec.startsWith(`${manifest.name}@`) || spec === manifest.name));

  it("installs this package by name at a range of its version, with the @pulumi/pulumi it depends on", () => {
    expect(fromRegistry).toHaveLength(1);
    expect(fromRegistry[0]).toEqual([`${manifest.name}@${wanted}`, `@pulumi/pulumi@${manifest.dependencies["@pulumi/pulumi"]}`]);
  });

  it("installs from git under the package's name, and says that prepare compiles it, as package.json's prepare does", () => {
    const fromGit = lines.filter((specs) => specs.some((spec) => spec.startsWith("git+")));
    expect(fromGit).toHaveLength(1);
    expect(fromGit[0]?.[0]).toMatch(new RegExp(`/${manifest.name}\\.git$`));
    expect(install).toContain("`prepare`");
    expect(manifest.scripts["prepare"]).toBe("node scripts/build.js --if-stale");
  });

  it("states the Node.js and Pulumi versions package.json requires", () => {
    expect(manifest.engines.node).toMatch(/^>=\d+$/);
    expect(install).toContain(`Node.js ${manifest.engines.node.replace(">=", ">= ")}`);
    expect(install).toContain(`Pulumi CLI >= ${manifest.dependencies["@pulumi/pulumi"]}`);
  });
});

describe("README's minimal project", () => {
  const project = section("A complete minimal project");
  const json = blocks(project).filter((block) => block.language === "json");
  const packageJson = json
    .map((block) => JSON.parse(block.body) as unknown)
    .map((value) => z.object({ dependencies: z.record(z.string(), z.string()) }).safeParse(value))
    .filter((parsed) => parsed.success)
    .map((parsed) => parsed.data);

  it("depends on this package at a range of its version and on the same @pulumi/pulumi", () => {
    expect(packageJson).toHaveLength(1);
    expect(packageJson[0]?.dependencies).toMatchObject({
      [manifest.name]: wanted,
      "@pulumi/pulumi": manifest.dependencies["@pulumi/pulumi"],
    });
  });
});
