/**
 * Two `semcache serve` processes over one shared store, each with its own data folder (its own hnswlib index),
 * started from one YAML config: they behave as one cache. A put through one is an exact and a semantic hit
 * through the other, a flush through one leaves both answering everything, eviction keeps the store at max_size
 * under concurrent puts through both, and a clear through one is seen by both.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CacheClient } from "../../src/server/client.js";
import { MariaDbScalarStore } from "../../src/stores/scalar/mysql.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { RedisScalarStore } from "../../src/stores/scalar/redis.js";
import { tempDir, wholeStats } from "../helpers/fixtures.js";
import { TEST_URL_VARS, testUrl, uniquePrefix, type DroppableStore } from "../helpers/server-stores.js";
import { startServer, type CliProcess } from "./cli-process.js";

const MAX_SIZE = 10;
const CLEAN_SIZE = 2;
/**
 * 0: a replica pulls other replicas' new entries into its index before every search, so nothing here waits for
 * the interval (tests/stores/replica-sync.test.ts runs the interval on a ManualClock).
 */
const SYNC_INTERVAL_MS = 0;

interface Backend {
  name: string;
  /** The service's test URL, or undefined (its tests are then skipped with a printed reason). */
  url: string | undefined;
  urlVar: string;
  /** storage_config lines naming the store and this run's tables / namespace. */
  storage(id: string): string;
  /** The same store, opened directly: to count its live entries and to drop it afterwards. */
  open(url: string, id: string): DroppableStore;
}

const BACKENDS: Backend[] = [
  {
    name: "postgres",
    url: testUrl("postgres"),
    urlVar: TEST_URL_VARS.postgres,
    storage: (id) => `  manager: postgres,hnswlib\n  scalar_params:\n    url_env: ${TEST_URL_VARS.postgres}\n    table_prefix: ${id}\n    pool_size: 4\n`,
    open: (url, id) => new PostgresScalarStore({ url, tablePrefix: id }),
  },
  {
    name: "mariadb",
    url: testUrl("mysql"),
    urlVar: TEST_URL_VARS.mysql,
    storage: (id) => `  manager: mariadb,hnswlib\n  scalar_params:\n    url_env: ${TEST_URL_VARS.mysql}\n    table_prefix: ${id}\n    pool_size: 4\n`,
    open: (url, id) => new MariaDbScalarStore({ url, tablePrefix: id }),
  },
  {
    name: "redis",
    url: testUrl("redis"),
    urlVar: TEST_URL_VARS.redis,
    storage: (id) => `  manager: redis,hnswlib\n  scalar_params:\n    url_env: ${TEST_URL_VARS.redis}\n    namespace: ${id}\n`,
    open: (url, id) => new RedisScalarStore({ url, namespace: id }),
  },
];

const AVAILABLE = BACKENDS.filter((backend) => backend.url !== undefined);

// jest refuses an empty table; with no service URL set, testUrl has registered the skips.
(AVAILABLE.length > 0 ? describe.each(AVAILABLE) : () => () => undefined)("two semcache serve replicas over one $name store", (backend: Backend) => {
  const url = backend.url as string;
  const id = uniquePrefix(`r${backend.name.slice(0, 2)}`);
  const dir = tempDir("semcache-replicas-");
  let store: DroppableStore;
  let servers: Array<CliProcess & { url: string }> = [];
  let a: CacheClient;
  let b: CacheClient;
  /** Every question put so far and its answer. */
  const stored = new Map<string, string>();

  beforeAll(async () => {
    const config = join(dir.path, "replica.yaml");
    // One config for both: only -d (the folder of each replica's index) differs.
    writeFileSync(config, `storage_config:\n  max_size: ${MAX_SIZE}\n  sync_interval_ms: ${SYNC_INTERVAL_MS}\n  clean_size: ${CLEAN_SIZE}\n  eviction: LRU\n${backend.storage(id)}`);
    servers = await Promise.all(["a", "b"].map((name) => startServer(["-f", config, "-d", join(dir.path, name)], { [backend.urlVar]: url })));
    a = new CacheClient(servers[0].url);
    b = new CacheClient(servers[1].url);
    store = backend.open(url, id);
    await store.init();
  }, 120_000);

  afterAll(async () => {
    a?.close();
    b?.close();
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
    }
    const codes = await Promise.all(servers.map((server) => server.exited));
    await store?.drop();
    await store?.close();
    dir.cleanup();
    // Stopped gracefully (requests finished, store flushed and closed), after the store was dropped or not.
    expect(codes).toEqual(servers.map(() => 0));
  }, 60_000);

  const put = async (client: CacheClient, question: string, answer: string) => {
    expect(await client.put(question, answer)).toBe(200);
    stored.set(question, answer);
  };

  it("answers through B what was put through A: the same question, and a rewording once B's index has pulled it", async () => {
    await put(a, "How do I reset my password?", "Use the 'forgot password' link.");
    // The exact key is looked up in the shared store: no index needed.
    expect(await b.get("How do I reset my password?")).toBe("Use the 'forgot password' link.");
    // A rewording needs B's own index, which pulls other replicas' entries before a search (interval 0).
    expect(await b.get("How can I reset my password?")).toBe("Use the 'forgot password' link.");
    expect(await b.get("How do I delete my account?")).toBeNull();

    await put(b, "What is the boiling point of water?", "100 °C at sea level.");
    expect(await a.get("Tell me the boiling point of water.")).toBe("100 °C at sea level.");
  }, 60_000);

  it("after a flush through A, then through B, both answer every entry and count the same store", async () => {
    await put(a, "Who wrote Pride and Prejudice?", "Jane Austen.");
    await put(b, "What is the capital of Australia?", "Canberra.");
    await a.flush();
    await b.flush();
    for (const client of [a, b]) {
      for (const [question, answer] of stored) expect(await client.get(question)).toBe(answer);
      expect(wholeStats(await client.stats()).entries).toBe(stored.size);
    }
    expect(await store.count()).toBe(stored.size);
  }, 60_000);

  it(`keeps the store at max_size (${MAX_SIZE}) under ${3 * MAX_SIZE} concurrent puts through both, and both keep answering`, async () => {
    const questions = Array.from({ length: 3 * MAX_SIZE }, (_, i) => [`Replica load question number ${i}: which shelf holds box ${i * 7}?`, `shelf ${i}`] as const);
    await Promise.all(questions.map(([question, answer], i) => put(i % 2 === 0 ? a : b, question, answer)));

    const live = await store.count();
    expect(live).toBeLessThanOrEqual(MAX_SIZE);
    expect(live).toBeGreaterThan(0);
    for (const client of [a, b]) {
      expect(wholeStats(await client.stats()).entries).toBe(live);
      // Exactly the live entries answer with their own answer (an evicted question may only match a neighbour).
      let own = 0;
      for (const [question, answer] of stored) if ((await client.get(question)) === answer) own++;
      expect(own).toBe(live);
    }

    await put(a, "Which planet is known as the red planet?", "Mars.");
    expect(await b.get("Which planet is known as the red planet?")).toBe("Mars.");
    for (const server of servers) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await store.count()).toBeLessThanOrEqual(MAX_SIZE);
  }, 90_000);

  it("a clear through B empties the cache for A too (exact and reworded)", async () => {
    await b.clear();
    expect(await a.get("Which planet is known as the red planet?")).toBeNull();
    expect(await a.get("What planet is called the red planet?")).toBeNull();
    for (const client of [a, b]) expect(wholeStats(await client.stats()).entries).toBe(0);
    expect(await store.count()).toBe(0);
  }, 60_000);
});
