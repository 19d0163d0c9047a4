/**
 * An exact-match cache (no vector index) through the public path: importData, then get() on stored questions
 * beside the store's own findByKey on the same keys; import rate and memory per entry.
 * `--stub touch[,report]` turns the hit bookkeeping (buffered last-access updates, report rows) into no-ops on
 * the data manager, to show what it costs (an ablation: the shipped path always does it).
 *   npx tsx --expose-gc bench/exact-store.ts --store memory|sqlite [--size 100000] [--samples 20000] [--stub touch,report]
 * Prints markdown tables and writes bench/results/exact-<store>-<size>[-no-<stub>].json (or --json <file>).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cache } from "../src/presets/cache.js";
import { managerFactory } from "../src/presets/manager-factory.js";
import { parseArgs } from "./lib/args.js";
import { memoryDelta, memorySnapshot } from "./lib/measure.js";
import { environment, saveResult } from "./lib/output.js";
import { exactHitTable, exactRows, importRows, importTable, memoryRows, memoryTable } from "./lib/report.js";
import { exactHits, importEntries } from "./lib/scenario.js";
import type { ExactResult } from "./lib/types.js";

const MANAGERS = {
  memory: { label: "memory (default MapDataManager)", create: () => undefined },
  sqlite: { label: 'managerFactory("sqlite")', create: (dataDir: string) => managerFactory("sqlite", { dataDir }) },
} as const;

const args = parseArgs();
const store = args.value("store") ?? "memory";
if (store !== "memory" && store !== "sqlite") throw new Error(`--store must be memory or sqlite, got ${store}`);
const size = args.number("size", 100_000);
const samples = args.number("samples", 20_000);
const manager = MANAGERS[store];
const stubs = (args.value("stub") ?? "").split(",").filter(Boolean);
for (const stub of stubs) if (stub !== "touch" && stub !== "report") throw new Error(`--stub takes touch and/or report, got ${stub}`);
const label = stubs.length === 0 ? manager.label : `${manager.label}, no ${stubs.join(", no ")} (ablation)`;

const dataDir = mkdtempSync(join(tmpdir(), "semcache-bench-exact-"));
try {
  console.log(`\n## exact-match cache: ${label}, ${size.toLocaleString("en")} entries`);
  const cache = await new Cache().init({ dataManager: manager.create(dataDir) });
  if (stubs.includes("touch")) cache.dataManager.hit = () => undefined;
  if (stubs.includes("report")) cache.dataManager.report = () => undefined;
  const before = await memorySnapshot();
  const imported = await importEntries(cache, size);
  const after = await memorySnapshot();
  const exactHit = await exactHits(cache, size, samples);
  await cache.close();

  const result: ExactResult = {
    scenario: "exact",
    manager: label,
    size,
    import: imported,
    memory: memoryDelta(size, before, after),
    exactHit,
    env: environment(),
  };
  console.log(`\n${exactHitTable(exactRows([result]))}\n\n${importTable(importRows([result]))}\n\n${memoryTable(memoryRows([result]))}`);
  saveResult(`exact-${store}-${size}${stubs.map((stub) => `-no-${stub}`).join("")}`, result, args.value("json"));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
