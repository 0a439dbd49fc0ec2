// Pulumi's log (`@pulumi/pulumi`'s `log`), loaded at its first line. The dynamic provider host has
// loaded @pulumi/pulumi before any of this package's code, so there this costs nothing; the provider
// plugin's process (provider/plugin/) logs to the engine itself and needs none of it to serve a
// preview, but an import at the top of a module it loads made it load all of @pulumi/pulumi (about
// 700 modules, most of a second of CPU) on every operation.

type PulumiLog = typeof import("@pulumi/pulumi").log;

let loaded: PulumiLog | undefined;

/** Pulumi's log, loading @pulumi/pulumi on the first call (a synchronous require: no line waits or reorders). */
export function pulumiSdkLog(): PulumiLog {
  loaded ??= (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).log;
  return loaded;
}
