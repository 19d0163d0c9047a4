/// <reference types="jest" />
import { Cache, cached, DistanceEvaluation, managerFactory, put, StoreError, type VectorParams } from "../../src/index.js";
import { createVectorIndex, type VectorIndexParams } from "../../src/stores/vector/kinds.js";
import { testVectorIndex } from "../../src/testing/vector-index-contract.js";
import { BagOfWordsEmbedding, tempDir } from "./fixtures.js";

let counter = 0;

/** A table/collection name of this test run (lowercase, fits every store's rules), so runs never share one. */
export function testCollection(prefix = "semcache_test"): string {
  counter++;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
}

/** Reads a test server URL from the environment, printing why the suite is skipped when it is unset. */
export function serverUrl(variable: string, what: string): string | undefined {
  const url = process.env[variable];
  if (!url) console.log(`skipped: ${what} (set ${variable} to run it against a real server)`);
  return url;
}

export interface DatabaseContractOptions {
  name: string;
  kind: string;
  /** Connection options (read when a test runs, so servers started in beforeAll are known); `dir` is the test's temp folder. */
  params: (context: { dir: string }) => Partial<VectorIndexParams>;
  /** Removes a collection the suite made (stores kept in the test's folder need not). */
  drop?: (collection: string) => Promise<void>;
  minRecall?: number;
}

/**
 * The VectorIndex contract against a database kind: each test gets its own collection (the same one when the
 * suite reopens the index), dropped after the test.
 */
export function testDatabaseKind(options: DatabaseContractOptions): void {
  const collections = new Map<string, string>();
  const collectionOf = (dir: string): string => {
    let name = collections.get(dir);
    if (name === undefined) collections.set(dir, (name = testCollection()));
    return name;
  };
  describe(options.name, () => {
    afterEach(async () => {
      for (const name of collections.values()) await options.drop?.(name);
      collections.clear();
    });
    testVectorIndex({
      name: options.name,
      create: ({ dir, dimension }) => createVectorIndex(options.kind, { ...options.params({ dir }), dimension, collection: collectionOf(dir) }),
      persistent: true,
      minRecall: options.minRecall,
    });
  });
}

export interface OutageScenario {
  /** Factory string, e.g. "sqlite,pgvector". */
  kinds: string;
  vectorParams: VectorParams;
  /** Takes the store down (and keeps it down until `restore`). */
  takeDown: () => Promise<void>;
  /** Brings it back at the same address. */
  restore: () => Promise<void>;
  /** The store's kind, as StoreError names it. */
  kind: string;
}

/**
 * A store that drops mid-run: lookups fail open (the model is called, the fault counted), puts fail loudly,
 * and the same cache object answers from the store again once it is back, without a restart.
 */
export async function expectOutageRecovery(scenario: OutageScenario): Promise<void> {
  const dir = tempDir("semcache-outage-");
  const embedding = new BagOfWordsEmbedding();
  const cache = await new Cache().init({
    embeddingFunc: embedding,
    dataManager: managerFactory(scenario.kinds, { dataDir: dir.path, vectorParams: scenario.vectorParams }),
    similarityEvaluation: new DistanceEvaluation(),
    config: { similarityThreshold: 0.9 },
  });
  try {
    let modelCalls = 0;
    const ask = cached(async (prompt: string) => `answer ${++modelCalls} to ${prompt}`, { requestOptions: { cacheObj: cache } });
    expect(await ask("what is the capital of France")).toBe("answer 1 to what is the capital of France");
    // Same words, other text: answered by the vector search, not the exact-key lookup.
    expect(await ask("What is the capital of France?")).toBe("answer 1 to what is the capital of France");
    expect(cache.report.errors).toBe(0);

    await scenario.takeDown();
    expect(await ask("what is the capital of France!")).toBe("answer 2 to what is the capital of France!");
    expect(cache.report.errors).toBeGreaterThanOrEqual(1);
    const failure = await put("how tall is the eiffel tower", "330 m", { cacheObj: cache }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(StoreError.isInstance(failure)).toBe(true);
    expect((failure as StoreError).store).toBe(scenario.kind);

    await scenario.restore();
    const before = cache.report.errors;
    expect(await ask("WHAT is the capital of France")).toBe("answer 1 to what is the capital of France");
    await put("how tall is the eiffel tower", "330 m", { cacheObj: cache });
    expect(await ask("How tall is the Eiffel tower?")).toBe("330 m");
    expect(cache.report.errors).toBe(before);
    expect(modelCalls).toBe(2);
  } finally {
    await cache.close().catch(() => undefined);
    dir.cleanup();
  }
}
