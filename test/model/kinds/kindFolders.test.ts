/**
 * A kind is a folder of model/kinds/ and an entry of its registry: every registered kind has its
 * folder with its field table and reader, the registry's reader is that folder's (its table names
 * the kind), and no folder stands there that no kind registers (code of a kind nobody serves).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCE_KINDS } from "../../../model/kinds";
import { KIND_READERS } from "../../../model/kinds/registry";
import { podReader } from "../../../model/kinds/pod/podReader";

const kindsFolder = path.resolve(__dirname, "../../../model/kinds");

describe("the kinds' folders and registry", () => {
  it("gives every registered kind a folder with its field table and reader, and no folder to an unregistered one", () => {
    const folders = fs
      .readdirSync(kindsFolder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual([...RESOURCE_KINDS].sort());
    for (const kind of RESOURCE_KINDS) {
      const files = fs.readdirSync(path.join(kindsFolder, kind));
      expect(files, `model/kinds/${kind}/`).toEqual(expect.arrayContaining([`${kind}Fields.ts`, `${kind}Reader.ts`]));
      expect(
        files.filter((file) => !file.startsWith(kind)),
        `model/kinds/${kind}/ names its files after the kind`,
      ).toEqual([]);
    }
  });

  it("registers each kind's own reader, whose table names that kind", () => {
    expect(Object.keys(KIND_READERS).sort()).toEqual([...RESOURCE_KINDS].sort());
    expect(KIND_READERS.pod).toBe(podReader);
    const nouns = RESOURCE_KINDS.map((kind) => KIND_READERS[kind].table.noun);
    expect(new Set(nouns).size).toBe(RESOURCE_KINDS.length);
    expect(KIND_READERS.networkVolume.table.noun).toBe("network volume");
  });
});
