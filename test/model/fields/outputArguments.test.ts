// The plain output lists the SDK registers (model/fields/outputArguments.ts), held equal to what each
// kind's field table says: the SDK reads the lists so that a program's load does not load the tables.
import { describe, expect, it } from "vitest";
import { endpointTable } from "../../../model/fields/endpointFields";
import { outputNames, type ResourceTable } from "../../../model/fields/fieldTable";
import { networkVolumeTable } from "../../../model/fields/networkVolumeFields";
import { RESOURCE_OUTPUTS } from "../../../model/fields/outputArguments";
import { podTable } from "../../../model/fields/podFields";
import { registryAuthTable } from "../../../model/fields/registryAuthFields";
import { secretTable } from "../../../model/fields/secretFields";
import { templateTable } from "../../../model/fields/templateFields";
import { RESOURCE_KINDS, type ResourceKind } from "../../../model/kinds";

const TABLES: Record<ResourceKind, ResourceTable<never>> = {
  pod: podTable,
  endpoint: endpointTable,
  networkVolume: networkVolumeTable,
  template: templateTable,
  registryAuth: registryAuthTable,
  secret: secretTable,
};

describe.each(RESOURCE_KINDS)("the %s outputs the SDK registers", (kind) => {
  const table = TABLES[kind];

  it("are every output the table names", () => {
    expect([...RESOURCE_OUTPUTS[kind].all].sort()).toEqual(outputNames(table).sort());
  });

  it("registered whether declared or not: the outputs the service computes and the arguments always read back, in row order", () => {
    const computed = Object.entries(table.fields)
      .filter(([, row]) => row.kind === "serverManaged" || row.alwaysObserved)
      .map(([name]) => name);
    expect(RESOURCE_OUTPUTS[kind].computed).toEqual(computed);
  });
});
