// Every kind's field table, for the generators that read them all (the plugin's schema, the SDK's
// output lists). Not in model/: a program or a provider process loads only the tables it uses.
import { endpointTable } from "../../model/fields/endpointFields";
import type { ResourceTable } from "../../model/fields/fieldTable";
import { networkVolumeTable } from "../../model/fields/networkVolumeFields";
import { podTable } from "../../model/fields/podFields";
import { registryAuthTable } from "../../model/fields/registryAuthFields";
import { secretTable } from "../../model/fields/secretFields";
import { templateTable } from "../../model/fields/templateFields";
import type { ResourceKind } from "../../model/kinds";

export const FIELD_TABLES: Readonly<Record<ResourceKind, ResourceTable<never>>> = {
  pod: podTable as ResourceTable<never>,
  endpoint: endpointTable as ResourceTable<never>,
  networkVolume: networkVolumeTable as ResourceTable<never>,
  template: templateTable as ResourceTable<never>,
  registryAuth: registryAuthTable as ResourceTable<never>,
  secret: secretTable as ResourceTable<never>,
};
