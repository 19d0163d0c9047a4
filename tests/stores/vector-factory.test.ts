/**
 * Factory strings naming vector databases ("postgres,pgvector", "mysql,lancedb", "redis,qdrant,s3"), and two
 * cache replicas sharing a server scalar store and a vector database for real where both run here.
 */
import { jest } from "@jest/globals";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { Cache, DistanceEvaluation, get, managerFactory, put, UnknownKindError, type ManagerFactoryOptions } from "../../src/index.js";
import { type ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix } from "../helpers/server-stores.js";
import { testCollection } from "../helpers/vector-database.js";

jest.setTimeout(60_000);

const closed = "127.0.0.1:1";

describe("factory strings with vector databases", () => {
  const cases: Array<[string, ManagerFactoryOptions, string, string | undefined]> = [
    ["postgres,pgvector", { scalarParams: { url: `postgres://u:p@${closed}/db` }, vectorParams: { url: `postgres://u:p@${closed}/db` } }, "pgvector", undefined],
    ["mysql,lancedb", { scalarParams: { url: `mysql://root@${closed}/test` } }, "lancedb", undefined],
    ["redis,qdrant,s3", { scalarParams: { url: `redis://${closed}` }, vectorParams: { url: `http://${closed}` }, objectParams: { bucket: "cache-objects" } }, "qdrant", "s3"],
    ["mariadb,chroma,local", { scalarParams: { url: `mysql://root@${closed}/test` }, vectorParams: { url: `http://${closed}` } }, "chroma", "local"],
    ["mongodb,mongodb-atlas", { scalarParams: { url: `mongodb://${closed}` }, vectorParams: { url: `mongodb://${closed}` } }, "mongodb-atlas", undefined],
    ["sqlite,milvus", { vectorParams: { url: `http://${closed}` } }, "milvus", undefined],
    ["sqlite,redis", { vectorParams: { url: `redis://${closed}` } }, "redis", undefined],
    ["sqlite,weaviate", { vectorParams: { url: `http://${closed}` } }, "weaviate", undefined],
    ["sqlite,elasticsearch", { vectorParams: { url: `http://${closed}` } }, "elasticsearch", undefined],
    ["sqlite,opensearch", { vectorParams: { url: `http://${closed}` } }, "opensearch", undefined],
  ];

  it.each(cases)("%s builds its parts by kind, without connecting", (kinds, options, vectorKind, objectKind) => {
    const dir = tempDir();
    try {
      const manager = managerFactory(kinds, { dataDir: dir.path, ...options });
      expect(manager.vector?.kind).toBe(vectorKind);
      expect(manager.vector?.capabilities).toEqual({ persistent: true, shared: true });
      expect(manager.object?.kind).toBe(objectKind);
    } finally {
      dir.cleanup();
    }
  });

  it("lists the database kinds when a vector kind is unknown", () => {
    expect(() => managerFactory("sqlite,pinecone")).toThrow(UnknownKindError);
    for (const kind of ["pgvector", "lancedb", "chroma", "milvus", "qdrant", "redis", "weaviate", "elasticsearch", "opensearch", "mongodb-atlas"]) {
      expect(() => managerFactory("sqlite,pinecone")).toThrow(new RegExp(`Known kinds: .*\\b${kind}\\b`));
    }
  });
});

/** Two caches (replicas) over the same stores: what one stores, the other answers, paraphrases included. */
async function expectReplicasShare(kinds: string, options: () => ManagerFactoryOptions): Promise<void> {
  const dirs = [tempDir(), tempDir()];
  const replicas = await Promise.all(
    dirs.map((dir) =>
      new Cache().init({
        embeddingFunc: new BagOfWordsEmbedding(),
        dataManager: managerFactory(kinds, { dataDir: dir.path, ...options() }),
        similarityEvaluation: new DistanceEvaluation(),
        config: { similarityThreshold: 0.9 },
      }),
    ),
  );
  try {
    const [a, b] = replicas;
    await put("how do I reset my password", "Use the link on the sign-in page.", { cacheObj: a });
    expect(await get("How do I reset my password?", { cacheObj: b })).toBe("Use the link on the sign-in page.");
    await put("what is the boiling point of water", "100 degrees Celsius at sea level.", { cacheObj: b });
    expect(await get("What is the boiling point of water?", { cacheObj: a })).toBe("100 degrees Celsius at sea level.");
    expect(await get("how do I bake bread", { cacheObj: a })).toBeNull();
  } finally {
    for (const replica of replicas) await replica.close();
    // The scalar tables stay in the server: drop them through a store of the same kind and prefix.
    const scalar = managerFactory(kinds.split(",")[0], { dataDir: dirs[0].path, ...options() }).scalar as ScalarStore & { drop(): Promise<void> };
    await scalar.init();
    await scalar.drop();
    await scalar.close();
    for (const dir of dirs) dir.cleanup();
  }
}

const postgresUrl = testUrl("postgres");
(postgresUrl ? describe : describe.skip)('"postgres,pgvector": PostgreSQL rows, pgvector on PGlite over the wire', () => {
  let db: PGlite;
  let server: PGLiteSocketServer;

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 8 });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await db?.close();
  });

  it("shares entries between two replicas", async () => {
    const prefix = uniquePrefix("pgv");
    const table = testCollection();
    await expectReplicasShare("postgres,pgvector", () => ({
      scalarParams: { url: postgresUrl, tablePrefix: prefix },
      vectorParams: { url: `postgres://postgres@${server.getServerConn()}/postgres`, collection: table },
    }));
  });
});

const mysqlUrl = testUrl("mysql");
(mysqlUrl ? describe : describe.skip)('"mysql,lancedb": MariaDB rows, one LanceDB folder', () => {
  it("shares entries between two replicas", async () => {
    const lance = tempDir();
    const prefix = uniquePrefix("lance");
    try {
      await expectReplicasShare("mysql,lancedb", () => ({
        scalarParams: { url: mysqlUrl, tablePrefix: prefix },
        vectorParams: { uri: lance.path },
      }));
    } finally {
      lance.cleanup();
    }
  });
});
