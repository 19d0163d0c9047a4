/**
 * pgvector for real: PGlite with its vector extension in process, and the same over the wire (pglite-socket +
 * pg), through LangChain's PGVectorStore. A real PostgreSQL with pgvector runs the contract too when
 * SEMCACHE_TEST_PGVECTOR_URL is set.
 */
import { createServer, type AddressInfo } from "node:net";
import { jest } from "@jest/globals";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { PGVectorStore } from "@langchain/community/vectorstores/pgvector";
import { DimensionMismatchError, StoreError, ValidationError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { DatabaseVectorIndex } from "../../src/stores/vector/database-index.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { LangChainVectorIndex } from "../../src/stores/vector/langchain-bridge.js";
import { vectorsOnlyEmbeddings } from "../../src/stores/vector/vectors-only-embeddings.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import type { Pool } from "pg";
import { tempDir } from "../helpers/fixtures.js";
import { expectOutageRecovery, serverUrl, testCollection, testDatabaseKind } from "../helpers/vector-database.js";

jest.setTimeout(60_000);

let db: PGlite;
const drop = (table: string) => db.query(`DROP TABLE IF EXISTS ${table}`).then(() => undefined);

beforeAll(async () => {
  db = await PGlite.create({ extensions: { vector } });
});

afterAll(async () => {
  await db?.close();
});

/** A port nothing listens on (just released by the OS). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startSocketServer(port = 0): Promise<{ server: PGLiteSocketServer; url: string }> {
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port, maxConnections: 8 });
  await server.start();
  return { server, url: `postgres://postgres@${server.getServerConn()}/postgres` };
}

describe("pgvector on PGlite, in process", () => {
  testDatabaseKind({ name: "pgvector (PGlite in process)", kind: "pgvector", params: () => ({ client: db }), drop });

  const random = seededRandom(11);

  it("creates the table with a typed vector column and an HNSW cosine index the search uses", async () => {
    const table = testCollection();
    const index = createVectorIndex("pgvector", { client: db, collection: table, dimension: 8 });
    await index.init();
    await index.add(Array.from({ length: 50 }, (_, i) => ({ id: i + 1, vector: randomUnitVector(8, random) })));
    const { rows } = await db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = $1", [table]);
    expect(rows.map((row) => row.indexdef).join("\n")).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    const { rows: columns } = await db.query<{ type: string }>(
      "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding'",
      [table],
    );
    expect(columns[0].type).toBe("vector(8)");
    // The query PGVectorStore sends, planned with sequential scans discouraged: the HNSW index serves it.
    await db.query("SET enable_seqscan = off");
    const plan = await db.query<Record<string, string>>(
      `EXPLAIN SELECT *, "embedding" <=> $1 as "_distance" FROM ${table} ORDER BY "_distance" ASC LIMIT $2`,
      [`[${Array.from(randomUnitVector(8, random)).join(",")}]`, 5],
    );
    await db.query("RESET enable_seqscan");
    expect(plan.rows.map((row) => Object.values(row)[0]).join("\n")).toMatch(new RegExp(`Index Scan using ${table}_hnsw`));
    await index.close();
    await drop(table);
  });

  it("is shared: a second index over the same table sees the first one's table, adds and deletes", async () => {
    const table = testCollection();
    const one = createVectorIndex("pgvector", { client: db, collection: table, dimension: 8 });
    const two = createVectorIndex("pgvector", { client: db, collection: table, dimension: 0 });
    // The second replica starts first, before any table exists, and learns the dimension when it appears.
    await two.init();
    expect(two.dimension).toBe(0);
    await one.init();
    expect(await two.search(randomUnitVector(8, random), 1)).toEqual([]);
    expect(two.dimension).toBe(8);
    expect(one.capabilities).toEqual({ persistent: true, shared: true });
    const target = randomUnitVector(8, random);
    await one.add([{ id: 7, vector: target }]);
    expect(await two.search(target, 1)).toEqual([{ id: 7, distance: expect.closeTo(0, 4) }]);
    await two.delete([7]);
    expect(await one.count()).toBe(0);
    await Promise.all([one.close(), two.close()]);
    await drop(table);
  });

  it("creates the table on the first add when no dimension is given", async () => {
    const table = testCollection();
    const index = createVectorIndex("pgvector", { client: db, collection: table, dimension: 0 });
    await index.init();
    expect(await index.count()).toBe(0);
    expect(await index.search(randomUnitVector(8, random), 3)).toEqual([]);
    await index.add([{ id: 1, vector: randomUnitVector(12, random) }]);
    expect(index.dimension).toBe(12);
    const error = await index.add([{ id: 2, vector: randomUnitVector(8, random) }]).catch((e: unknown) => e);
    expect(DimensionMismatchError.isInstance(error)).toBe(true);
    await index.close();
    await drop(table);
  });

  it("maps a user's own PGVectorStore (cosine) through the bridge: its scores are cosine distances", async () => {
    const table = testCollection();
    await db.query(`CREATE TABLE ${table} (id uuid PRIMARY KEY, text text, metadata jsonb, embedding vector(8))`);
    const store = new PGVectorStore(vectorsOnlyEmbeddings, { pool: db as never, tableName: table, distanceStrategy: "cosine" });
    const index = new LangChainVectorIndex(store, { dimension: 8 });
    await index.init();
    const query = randomUnitVector(8, random);
    await index.add([{ id: 1, vector: vectorAtCosine(query, 0.6, random) }]);
    expect(await index.search(query, 1)).toEqual([{ id: 1, distance: expect.closeTo(0.4, 4) }]);
    // A restart: a new bridge (empty live list) re-adds the rows the scalar store holds; the table still has them.
    const again = new LangChainVectorIndex(store, { dimension: 8 });
    await again.init();
    await again.add([{ id: 1, vector: query }]);
    expect(await again.search(query, 2)).toEqual([{ id: 1, distance: expect.closeTo(0, 4) }]);
    await again.delete([1]);
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n).toBe(0);
    await drop(table);
  });

  it("refuses names that would reach SQL unquoted, and says how to connect when nothing is configured", () => {
    expect(() => createVectorIndex("pgvector", { client: db, collection: "x; DROP TABLE y", dimension: 0 })).toThrow(ValidationError);
    const saved = { pg: process.env.SEMCACHE_PGVECTOR_URL, postgres: process.env.SEMCACHE_POSTGRES_URL };
    delete process.env.SEMCACHE_PGVECTOR_URL;
    delete process.env.SEMCACHE_POSTGRES_URL;
    try {
      expect(() => createVectorIndex("pgvector", { dimension: 0 })).toThrow(/SEMCACHE_PGVECTOR_URL or SEMCACHE_POSTGRES_URL/);
    } finally {
      if (saved.pg !== undefined) process.env.SEMCACHE_PGVECTOR_URL = saved.pg;
      if (saved.postgres !== undefined) process.env.SEMCACHE_POSTGRES_URL = saved.postgres;
    }
  });
});

describe("pgvector on PGlite over the wire (pglite-socket + pg)", () => {
  let server: PGLiteSocketServer;
  let url: string;

  beforeAll(async () => {
    ({ server, url } = await startSocketServer());
  });

  afterAll(async () => {
    await server?.stop();
  });

  testDatabaseKind({ name: "pgvector (pg client to pglite-socket)", kind: "pgvector", params: () => ({ url }), drop });

  it("names the store and the server when it is down at start", async () => {
    const port = await closedPort();
    const index = createVectorIndex("pgvector", { url: `postgres://postgres:secret@127.0.0.1:${port}/postgres`, dimension: 8 });
    const error = await index.init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).store).toBe("pgvector");
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as Error).message).toMatch(/cannot connect/);
    expect((error as Error).message).not.toContain("secret");
    await index.close();
  });

  it("takes its URL from SEMCACHE_PGVECTOR_URL", async () => {
    const saved = process.env.SEMCACHE_PGVECTOR_URL;
    process.env.SEMCACHE_PGVECTOR_URL = url;
    try {
      const table = testCollection();
      const index = createVectorIndex("pgvector", { collection: table, dimension: 4 }) as DatabaseVectorIndex;
      await index.init();
      expect(index.location).toContain(server.getServerConn());
      await index.close();
      await drop(table);
    } finally {
      if (saved === undefined) delete process.env.SEMCACHE_PGVECTOR_URL;
      else process.env.SEMCACHE_PGVECTOR_URL = saved;
    }
  });

  it("fails open while the server is down and recovers when it is back, without a restart", async () => {
    const table = testCollection();
    const port = Number(server.getServerConn().split(":").pop());
    await expectOutageRecovery({
      kinds: "sqlite,pgvector",
      kind: "pgvector",
      vectorParams: { url, collection: table },
      takeDown: () => server.stop(),
      restore: async () => {
        ({ server } = await startSocketServer(port));
      },
    });
    await drop(table);
  });
});

describe("pgvector embedded (PGlite in the data folder)", () => {
  it("keeps its vectors in dataDir/pgvector across a reopen, even with a server URL in the environment", async () => {
    const dir = tempDir();
    const random = seededRandom(5);
    const target = randomUnitVector(8, random);
    const saved = process.env.SEMCACHE_POSTGRES_URL;
    process.env.SEMCACHE_POSTGRES_URL = `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
    try {
      const first = managerFactory("sqlite,pgvector", { dataDir: dir.path, vectorParams: { embedded: true, dimension: 8 } });
      await first.init();
      await first.vector!.add([{ id: 3, vector: target }]);
      await first.close();
      const second = managerFactory("sqlite,pgvector", { dataDir: dir.path, vectorParams: { embedded: true } });
      await second.init();
      expect(second.vector!.dimension).toBe(8);
      expect(await second.vector!.search(target, 1)).toEqual([{ id: 3, distance: expect.closeTo(0, 4) }]);
      await second.close();
    } finally {
      if (saved === undefined) delete process.env.SEMCACHE_POSTGRES_URL;
      else process.env.SEMCACHE_POSTGRES_URL = saved;
      dir.cleanup();
    }
  });
});

const realPostgres = serverUrl("SEMCACHE_TEST_PGVECTOR_URL", "pgvector on a real PostgreSQL");
(realPostgres ? describe : describe.skip)("pgvector on a real PostgreSQL (SEMCACHE_TEST_PGVECTOR_URL)", () => {
  let admin: Pool;
  beforeAll(async () => {
    const pg = await import("pg");
    admin = new pg.default.Pool({ connectionString: realPostgres });
  });
  afterAll(async () => {
    await admin?.end();
  });
  testDatabaseKind({
    name: "pgvector (PostgreSQL)",
    kind: "pgvector",
    params: () => ({ url: realPostgres }),
    drop: (table) => admin.query(`DROP TABLE IF EXISTS ${table}`).then(() => undefined),
  });
});
