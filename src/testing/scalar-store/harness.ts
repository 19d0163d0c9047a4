import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NewRecord } from "../../core/types.js";
import {
  STORE_CAPABILITY_METHODS,
  type RecordStore,
  type ScalarStore,
  type StoreCapability,
  type TableLenConfig,
} from "../../core/contracts/scalar-store.js";
import { resolveRunner, type ContractIt, type TestRunner } from "../runner.js";

/** What a store factory gets for one test. */
export interface StoreTestContext {
  /** An empty directory owned by the test (removed after it); the same when reopening. */
  dir: string;
  /** Unique per test and the same when reopening: a table prefix or namespace for server stores. */
  testId: string;
  /** True when the suite wants a new instance on the data of the previous one (after closing it). */
  reopen: boolean;
  /** Column lengths the test needs; undefined means the defaults. */
  tableLenConfig?: Partial<TableLenConfig>;
  /** Report rows the test wants kept (the store's `maxReports`); undefined means the default. */
  maxReports?: number;
}

/** Creates a store (not yet initialised) on the test's data: empty unless `ctx.reopen`. */
export type ScalarStoreFactory = (ctx: StoreTestContext) => RecordStore | Promise<RecordStore>;

/**
 * What the suite tests beyond the required record contract: the store's optional capabilities, and
 * `columnLengths` for a store that declares `tableLen` and takes `ctx.tableLenConfig`.
 */
export type SuiteCapability = StoreCapability | "columnLengths";

/** Every SuiteCapability: what a full ScalarStore has. */
export const ALL_SUITE_CAPABILITIES: readonly SuiteCapability[] = Object.freeze([
  ...(Object.keys(STORE_CAPABILITY_METHODS) as StoreCapability[]),
  "columnLengths",
]);

export interface ScalarStoreSuiteOptions {
  name: string;
  create: ScalarStoreFactory;
  /** Whether the store keeps its data across close() and a new instance (its `capabilities.persistent`). */
  persistent: boolean;
  /**
   * The capabilities whose tests run (the others are registered as skipped). Default: all of them, a full
   * ScalarStore. The suite probes the store (in its "declares" test) and fails when it has a capability not listed here
   * or lacks one listed, so a store never skips a test by silence.
   */
  capabilities?: readonly SuiteCapability[];
  /** Runs after each test, once its stores are closed (e.g. drop a server database's tables). */
  cleanup?: (ctx: StoreTestContext) => void | Promise<void>;
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

/** What the harness lets a test ask for when it opens a store. */
export type OpenOverrides = Partial<Pick<StoreTestContext, "reopen" | "tableLenConfig" | "maxReports">>;

export interface ScalarStoreHarness {
  /**
   * Creates and initialises a store on the test's context; it is closed after the test. Typed as the full
   * ScalarStore: a test calls a capability's methods only when the suite runs that capability's tests.
   */
  open(overrides?: OpenOverrides): Promise<ScalarStore>;
}

/**
 * Registers beforeEach/afterEach hooks giving each test a fresh context; `open()` creates and initialises a
 * store on it, and every store opened is closed after the test. Shared by the scalar and eviction suites.
 */
export function scalarStoreHarness(
  create: ScalarStoreFactory,
  cleanup?: ScalarStoreSuiteOptions["cleanup"],
  runner?: TestRunner,
): ScalarStoreHarness {
  const { beforeEach, afterEach } = resolveRunner(runner);
  let ctx: StoreTestContext;
  let opened: RecordStore[] = [];
  let counter = 0;
  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), "semcache-store-"));
    ctx = { dir, testId: `t${process.pid}x${Date.now().toString(36)}x${++counter}`, reopen: false };
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    opened = [];
    await cleanup?.(ctx);
    await rm(ctx.dir, { recursive: true, force: true });
  });
  return {
    async open(overrides: OpenOverrides = {}): Promise<ScalarStore> {
      const store = await create({ ...ctx, ...overrides });
      opened.push(store);
      await store.init();
      return store as ScalarStore;
    },
  };
}

/** A record with defaults, for tests. */
export function sampleRecord(overrides: Partial<NewRecord> = {}): NewRecord {
  return { question: "q", answer: "a", answerType: "str", keyHash: "k", partition: "p", createdAtMs: 1_000, ...overrides };
}

/**
 * Four records whose eviction order differs per built-in policy (created 1..4; last access / hits):
 * A 100/2, B 50/5, C 60/1, D 70/9. First two out: LRU B,C; LFU C,A; FIFO A,B.
 */
export async function insertEvictionScenario(store: ScalarStore): Promise<Record<"A" | "B" | "C" | "D", number>> {
  const [A, B, C, D] = await store.insert(
    ["A", "B", "C", "D"].map((name, i) => sampleRecord({ question: name, keyHash: name, createdAtMs: i + 1 })),
  );
  await store.touch([
    { id: A, atMs: 100, count: 2 },
    { id: B, atMs: 50, count: 5 },
    { id: C, atMs: 60, count: 1 },
    { id: D, atMs: 70, count: 9 },
  ]);
  return { A, B, C, D };
}

/** What each part of the scalar store suite registers its tests with (inside the suite's describe). */
export interface ScalarSuitePart {
  runner: TestRunner;
  open: ScalarStoreHarness["open"];
  persistent: boolean;
  /** The capabilities the suite tests (the store must have exactly these). */
  tested: readonly SuiteCapability[];
  /** Whether the suite tests these capabilities (all of them). */
  has(...capabilities: SuiteCapability[]): boolean;
  /** `it` when the suite tests these capabilities, else `it.skip` (the runner reports the skip). */
  itWith(...capabilities: SuiteCapability[]): ContractIt["skip"];
}

/** The part's `has` and `itWith` for the capabilities a suite tests. */
export function capabilityGate(runner: TestRunner, tested: readonly SuiteCapability[]): Pick<ScalarSuitePart, "has" | "itWith"> {
  const has = (...capabilities: SuiteCapability[]) => capabilities.every((capability) => tested.includes(capability));
  return { has, itWith: (...capabilities) => (has(...capabilities) ? runner.it : runner.it.skip) };
}
