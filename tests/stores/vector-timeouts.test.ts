/**
 * A vector database that stops answering (connections held open, silent) behind a proxy of the test's own:
 * DatabaseVectorIndex gives every call up after timeoutMs, so a lookup misses and the model answers, a put's
 * vector add is counted as the cache's error, strict calls fail with a StoreError naming the database and
 * timeoutMs, and once the database answers again the same cache works: no silenced connection was reused.
 * pgvector runs on PGlite over the wire (pglite-socket + pg); Redis 7 (no vector search here) shows its client
 * is dropped and made again.
 */
import { jest } from "@jest/globals";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { get, put } from "../../src/core/api.js";
import { Cache } from "../../src/presets/cache.js";
import { StoreError } from "../../src/core/errors.js";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { DistanceEvaluation } from "../../src/similarity/distance.js";
import { DatabaseVectorIndex, type VectorDatabase } from "../../src/stores/vector/database-index.js";
import { redisDatabase } from "../../src/stores/vector/databases/redis.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import type { LangChainVectorStoreLike } from "../../src/stores/vector/store-profiles.js";
import { countingCachedModel, silenceableProxy, type SilenceableProxy } from "../helpers/connection-cut.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { TEST_URL_VARS, viaPort } from "../helpers/server-stores.js";
import { testCollection } from "../helpers/vector-database.js";
import { waitUntil } from "../helpers/wait-until.js";

jest.setTimeout(60_000);

// Long enough for a fresh connection to PGlite, which answers on this test's own thread, on a loaded 2-core machine
// (400 ms was not, once, in CI on 2026-11-28).
const TIMEOUT_MS = 1000;
/** More pooled connections than calls made while silent: idle ones are silenced too, and must not be reused. */
const POOL_SIZE = 8;
/** Scheduling and a real round trip on a loaded test machine, on top of the timeout itself. */
const SLACK_MS = 600;

async function elapsedMs<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

const failure = (run: () => Promise<unknown>): Promise<unknown> => run().then(() => undefined, (error: unknown) => error);

describe("pgvector (pg to pglite-socket) that stops answering", () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let proxy: SilenceableProxy;
  let cache: Cache;
  let dir: { path: string; cleanup: () => void };
  const table = testCollection();

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 16 });
    await server.start();
    proxy = await silenceableProxy("127.0.0.1", Number(server.getServerConn().split(":").pop()));
    dir = tempDir("semcache-vector-timeouts-");
    cache = await new Cache().init({
      embeddingFunc: new BagOfWordsEmbedding(),
      dataManager: managerFactory("sqlite,pgvector", {
        dataDir: dir.path,
        vectorParams: { url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, collection: table, timeoutMs: TIMEOUT_MS, poolSize: POOL_SIZE },
      }),
      similarityEvaluation: new DistanceEvaluation(),
      config: { similarityThreshold: 0.9 },
    });
  });

  afterAll(async () => {
    proxy?.restore();
    await cache?.close().catch(() => undefined);
    await proxy?.close();
    await server?.stop();
    await db?.close();
    dir?.cleanup();
  });

  it("a search and an add fail open within timeoutMs; the index answers again once the proxy forwards", async () => {
    const { ask, calls } = countingCachedModel(cache);
    // At once, so the pool opens several connections, left idle when the proxy falls silent.
    const topics = Array.from({ length: POOL_SIZE }, (_, i) => `what is the capital of country number ${i}`);
    await Promise.all(topics.map(ask));
    expect(await ask("what is the capital of France")).toBe("answer to what is the capital of France");
    // Same words, other text: answered by the vector search, not the exact-key lookup.
    expect(await ask("What is the capital of France?")).toBe("answer to what is the capital of France");
    expect(calls()).toBe(POOL_SIZE + 1);
    expect(cache.report.errors).toBe(0);

    proxy.silence();
    // A lookup (search) and the put of the model's answer (add), each bounded: the model answers, both counted.
    const during = await elapsedMs(() => ask("what is the capital of France!"));
    expect(during.value).toBe("answer to what is the capital of France!");
    expect(calls()).toBe(POOL_SIZE + 2);
    expect(cache.report.errors).toBe(2);
    expect(during.ms).toBeLessThan(2 * TIMEOUT_MS + SLACK_MS);

    // Strict calls: the search alone, then the add alone, each a StoreError naming pgvector and timeoutMs (after a
    // reset the index first asks for its store again, which meets the silence first).
    const search = await elapsedMs(() => failure(() => get("WHAT is the capital of France", { cacheObj: cache })));
    expect(StoreError.isInstance(search.value)).toBe(true);
    expect((search.value as StoreError).store).toBe("pgvector");
    expect(String(search.value)).toMatch(/pgvector: (search failed|cannot create the index) \(postgres:\/\/.*table semcache_test_\w+\): no answer within 1000 ms \(timeoutMs\)/);
    expect(search.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    const add = await elapsedMs(() => failure(() => put("how tall is the eiffel tower", "330 m", { cacheObj: cache })));
    expect(StoreError.isInstance(add.value)).toBe(true);
    expect(String(add.value)).toMatch(/pgvector: (cannot create the index|delete failed|add failed) .*no answer within 1000 ms \(timeoutMs\)/);
    expect(add.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);

    proxy.restore();
    // The silenced connections stay silent for good, the idle ones too: the pool the index dropped must not hand
    // any of them out again.
    const before = cache.report.errors;
    const again = await Promise.all(topics.map((topic) => ask(`${topic.toUpperCase()}?`)));
    expect(again).toEqual(topics.map((topic) => `answer to ${topic}`));
    expect(await ask("WHAT is the capital of France")).toBe("answer to what is the capital of France");
    await put("how tall is the eiffel tower", "330 m", { cacheObj: cache });
    expect(await ask("How tall is the Eiffel tower?")).toBe("330 m");
    expect(cache.report.errors).toBe(before);
    expect(calls()).toBe(POOL_SIZE + 2);
  });
});

describe("redis vector database that stops answering (Redis 7: the client is dropped, not reused)", () => {
  const url = process.env[TEST_URL_VARS.redis];
  if (!url) {
    process.stderr.write(`[skip] redis vector timeouts: ${TEST_URL_VARS.redis} is not set\n`);
    it.skip(`needs ${TEST_URL_VARS.redis}`, () => undefined);
    return;
  }

  it("init() fails within timeoutMs while silent, and reaches the server on a fresh connection once it answers", async () => {
    const proxy = await silenceableProxy("127.0.0.1", Number(new URL(url).port || 6379));
    const index = createVectorIndex("redis", { url: viaPort(url, proxy.port), collection: testCollection(), dimension: 8, timeoutMs: TIMEOUT_MS });
    try {
      proxy.silence();
      const silent = await elapsedMs(() => failure(() => index.init()));
      expect(StoreError.isInstance(silent.value)).toBe(true);
      expect((silent.value as StoreError).store).toBe("redis");
      expect(String(silent.value)).toMatch(/redis: .*\(redis:\/\/127\.0\.0\.1:\d+\/?, index \w+\): no answer within 1000 ms \(timeoutMs\)/);
      expect(silent.ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);

      proxy.restore();
      // A fresh connection reaches Redis 7, which has no FT.* commands: refused, not timed out (the silenced
      // client, had it been kept, would time out again).
      expect(String(await failure(() => index.init()))).toMatch(/redis: .* has no vector search/);
    } finally {
      proxy.restore();
      await index.close();
      await proxy.close();
    }
  });

  it("reset() drops a client whose command hangs (the command fails at once) and the next call connects afresh", async () => {
    const proxy = await silenceableProxy("127.0.0.1", Number(new URL(url).port || 6379));
    const database = redisDatabase({ url: viaPort(url, proxy.port), timeoutMs: TIMEOUT_MS });
    try {
      await database.open();
      proxy.silence();
      const sent = proxy.swallowedBytes;
      const hanging = failure(() => database.dimension());
      // The command is on the wire, unanswered (the silenced proxy took it), before the client is dropped.
      await waitUntil(() => proxy.swallowedBytes > sent, "the command to reach the silenced connection");
      const dropped = await elapsedMs(() => {
        database.reset!();
        return hanging;
      });
      expect(String(dropped.value)).toMatch(/disconnect/i);
      expect(dropped.ms).toBeLessThan(SLACK_MS);
      proxy.restore();
      expect(String(await failure(() => database.dimension()))).toMatch(/has no vector search/);
    } finally {
      proxy.restore();
      await database.close();
      await proxy.close();
    }
  });
});

describe("DatabaseVectorIndex deadlines", () => {
  /** A database whose count() waits for `answer`, and counts its resets and store() calls. */
  function fakeDatabase(extra: Partial<VectorDatabase> = {}) {
    const state = { resets: 0, stores: 0, silent: false };
    const never = new Promise<never>(() => undefined);
    const store = { similaritySearchVectorWithScore: async () => (state.silent ? never : []) } as unknown as LangChainVectorStoreLike;
    const database: VectorDatabase = {
      kind: "fake",
      location: "fake://db",
      score: "cosine-distance",
      upserts: true,
      open: async () => undefined,
      dimension: async () => 4,
      store: async () => {
        state.stores++;
        return store;
      },
      count: async () => (state.silent ? never : 0),
      clear: async () => undefined,
      close: async () => undefined,
      reset: () => void state.resets++,
      ...extra,
    };
    return { database, state };
  }

  it("fails a silent call with a StoreError after timeoutMs, resets the database and asks store() again", async () => {
    const { database, state } = fakeDatabase();
    const index = new DatabaseVectorIndex(database, 4, { timeoutMs: 50 });
    await index.init();
    expect(state.stores).toBe(1);
    state.silent = true;
    const search = await elapsedMs(() => failure(() => index.search(new Float32Array([1, 0, 0, 0]), 1)));
    expect(String(search.value)).toBe("StoreError: fake: search failed (fake://db): no answer within 50 ms (timeoutMs)");
    expect(search.ms).toBeLessThan(50 + SLACK_MS);
    expect(state.resets).toBe(1);
    state.silent = false;
    expect(await index.search(new Float32Array([1, 0, 0, 0]), 1)).toEqual([]);
    expect(state.stores).toBe(2);
    await index.close();
  });

  it("gives a slow step its extra time (none with Infinity) and checks timeoutMs", async () => {
    let finish: () => void = () => undefined;
    let reached: () => void = () => undefined;
    const counted = new Promise<void>((resolve) => (reached = resolve));
    const { database, state } = fakeDatabase({
      slowStepsMs: { count: Infinity },
      count: () => {
        reached();
        return new Promise<number>((resolve) => (finish = () => resolve(3)));
      },
    });
    // The deadlines run on a manual clock: moving it far past timeoutMs fires any that was set, at once.
    const clock = new ManualClock();
    const index = new DatabaseVectorIndex(database, 4, { timeoutMs: 20, clock });
    await index.init();
    const counting = index.count();
    await counted;
    clock.advance(100);
    finish();
    expect(await counting).toBe(3);
    expect(state.resets).toBe(0);
    await index.close();
    expect(() => new DatabaseVectorIndex(database, 4, { timeoutMs: 0 })).toThrow("fake: timeoutMs must be a positive integer, got 0");
    expect(() => createVectorIndex("qdrant", { url: "http://127.0.0.1:6333", dimension: 0, timeoutMs: 1.5 })).toThrow(
      "qdrant: timeoutMs must be a positive integer, got 1.5",
    );
  });

  it("is read from the GPTCache YAML as vector_params.timeout_ms for every database kind", () => {
    for (const kind of ["pgvector", "redis", "qdrant", "chroma", "milvus", "weaviate", "elasticsearch", "opensearch", "mongodb-atlas", "lancedb"]) {
      const yaml = `storage_config:\n  manager: sqlite,${kind}\n  vector_params:\n    timeout_ms: 250\n`;
      expect(loadGptCacheConfig(yaml, {}).storage?.vectorParams).toMatchObject({ timeoutMs: 250 });
    }
  });
});
