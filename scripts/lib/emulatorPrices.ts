/**
 * The emulator's billed rates for what the service's catalog does not price, as the `gpucloud:prices`
 * stack config value (see emulator/README.md): network volume storage at its rate for both tiers,
 * pod disks at 0 (the emulator does not bill them). With it, estimates match what the emulator bills.
 */
import { NETWORK_VOLUME_PRICE_PER_GB_MONTH } from "../../emulator/vocabulary/catalog";

export const EMULATOR_PRICES_CONFIG = JSON.stringify({
  networkVolumePerGbMonth: NETWORK_VOLUME_PRICE_PER_GB_MONTH,
  containerDiskPerGbMonth: 0,
  podVolumePerGbMonth: 0,
});
