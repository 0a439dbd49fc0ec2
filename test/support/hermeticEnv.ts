/**
 * The Pulumi CLI's environment for a hermetic run, whatever language drives the automation API:
 * this project's Node first on PATH (the plugins and the dynamic provider host run on it), a
 * temporary `file://` backend, a passphrase secrets provider, its own PULUMI_HOME, no update checks
 * and no plugin downloads.
 */
import { enginePath, type PulumiCli } from "../../scripts/lib/pulumiCli";

export const PASSPHRASE = "engine-test-passphrase";

export function hermeticEngineEnv(cli: PulumiCli, dirs: { stateDir: string; homeDir: string }): Record<string, string> {
  return {
    PATH: enginePath(cli),
    PULUMI_HOME: dirs.homeDir,
    PULUMI_BACKEND_URL: `file://${dirs.stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}
