/**
 * How much of each GPU type and CPU flavor each data center has free, before any allocation.
 * Configurable (option `availability`) so tests can make a type scarce and watch placement fall
 * back to the next one in the priority list.
 */
import { CPU_FLAVORS, DATA_CENTER_IDS, GPU_TYPES } from "./catalog";

/** A figure for every data center, or per data center id (data centers not listed get 0). */
export type PerDataCenter = number | Record<string, number>;

export interface AvailabilityOptions {
  /** Free GPUs per GPU type id. Types not listed get the defaults below. */
  gpus?: Record<string, PerDataCenter>;
  /** Free vCPUs per CPU flavor id. Flavors not listed get `defaultVcpus`. */
  cpus?: Record<string, PerDataCenter>;
  /** Free GPUs of each unlisted type in each data center (default 16). */
  defaultGpus?: number;
  /** Free vCPUs of each unlisted flavor in each data center (default 512). */
  defaultVcpus?: number;
  /** Keep the built-in scarce types (DEFAULT_SCARCE_GPUS) when `gpus` does not mention them (default true). */
  scarceDefaults?: boolean;
}

/**
 * Built-in scarcity, so that a fresh emulator already shows "none available" for the newest parts:
 * B200 is sold out, H200 / H200 NVL / MI300X exist in a couple of data centers only, and the
 * legacy spellings of type ids are never rentable.
 */
export const DEFAULT_SCARCE_GPUS: Readonly<Record<string, PerDataCenter>> = {
  "NVIDIA B200": 0,
  "NVIDIA H200": { "US-TX-3": 8, "EU-RO-1": 8 },
  "NVIDIA H200 NVL": { "US-KS-2": 4 },
  "AMD Instinct MI300X OAM": { "EU-RO-1": 8 },
};

export interface AvailabilityTable {
  /** Total free units (GPUs or vCPUs) of a type in a data center before allocations. */
  capacity(kind: "gpu" | "cpu", typeId: string, dataCenterId: string): number;
}

function figure(value: PerDataCenter, dataCenterId: string): number {
  return typeof value === "number" ? value : (value[dataCenterId] ?? 0);
}

function checkFigures(where: string, table: Record<string, PerDataCenter> | undefined, known: ReadonlyMap<string, unknown>): void {
  for (const [id, value] of Object.entries(table ?? {})) {
    if (!known.has(id)) throw new RangeError(`availability.${where}: unknown id "${id}"`);
    const values = typeof value === "number" ? [value] : Object.values(value);
    for (const v of values) {
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`availability.${where}["${id}"]: expected integers >= 0, got ${String(v)}`);
    }
    if (typeof value !== "number") {
      for (const dc of Object.keys(value)) {
        if (!(DATA_CENTER_IDS as readonly string[]).includes(dc))
          throw new RangeError(`availability.${where}["${id}"]: unknown data center "${dc}"`);
      }
    }
  }
}

export function createAvailabilityTable(options: AvailabilityOptions = {}): AvailabilityTable {
  checkFigures("gpus", options.gpus, GPU_TYPES);
  checkFigures("cpus", options.cpus, CPU_FLAVORS);
  const defaultGpus = options.defaultGpus ?? 16;
  const defaultVcpus = options.defaultVcpus ?? 512;
  const gpus: Record<string, PerDataCenter> = {
    ...(options.scarceDefaults === false ? {} : DEFAULT_SCARCE_GPUS),
    ...options.gpus,
  };
  return {
    capacity(kind, typeId, dataCenterId) {
      if (kind === "cpu") {
        const value = options.cpus?.[typeId];
        return value === undefined ? defaultVcpus : figure(value, dataCenterId);
      }
      if (GPU_TYPES.get(typeId)?.legacy) return 0;
      const value = gpus[typeId];
      return value === undefined ? defaultGpus : figure(value, dataCenterId);
    },
  };
}
