import { join } from "node:path";
import type { Clock } from "../core/clock.js";
import { MemoryScalarStore } from "../stores/scalar/memory.js";
import { DataManager } from "../manager/data-manager.js";
import type { EvictionPolicy } from "../core/contracts/eviction.js";

export interface MapDataManagerOptions {
  /** Folder to save `data_map.json` in on flush (and load from on init). Without it (or `path`) the map lives in memory only. */
  dataDir?: string;
  /** The JSON file itself, instead of dataDir. */
  path?: string;
  maxSize?: number;
  cleanSize?: number;
  /** "LRU" (default), "LFU", "FIFO" or a custom policy. */
  eviction?: string | EvictionPolicy;
  ttlSeconds?: number;
  /** Where time comes from (ages, expiry, the bookkeeping timer); default the system clock. */
  clock?: Clock;
}

/**
 * The default storage: an in-memory map keyed on the exact key, evicting by count, optionally saved to a JSON
 * file (GPTCache's MapDataManager). It is the general DataManager over the memory scalar store with no index.
 */
export class MapDataManager extends DataManager {
  constructor(options: MapDataManagerOptions = {}) {
    const path = options.path ?? (options.dataDir === undefined ? undefined : join(options.dataDir, "data_map.json"));
    super({
      scalar: new MemoryScalarStore({ path }),
      maxSize: options.maxSize,
      cleanSize: options.cleanSize,
      eviction: options.eviction,
      ttlSeconds: options.ttlSeconds,
      clock: options.clock,
    });
  }
}
