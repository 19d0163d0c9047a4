/** Chroma for real: the server bundled with the chromadb package, started on a free port for this file. */
import { jest } from "@jest/globals";
import { Chroma } from "@langchain/community/vectorstores/chroma";
import { ChromaClient } from "chromadb";
import { DimensionMismatchError, StoreError } from "../../src/core/errors.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { LangChainVectorIndex, type LangChainVectorStoreLike } from "../../src/stores/vector/langchain-bridge.js";
import { vectorsOnlyEmbeddings } from "../../src/stores/vector/vectors-only-embeddings.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDir } from "../helpers/fixtures.js";
import { freePort, startChromaServer, type ChromaServer } from "../helpers/local-services.js";
import { expectOutageRecovery, testCollection, testDatabaseKind } from "../helpers/vector-database.js";

jest.setTimeout(90_000);

const data = tempDir("semcache-chroma-");
let server: ChromaServer;
let client: ChromaClient;
const drop = (name: string) => client.deleteCollection({ name }).catch(() => undefined);

beforeAll(async () => {
  server = await startChromaServer(data.path);
  client = new ChromaClient({ host: "127.0.0.1", port: server.port });
});

afterAll(async () => {
  await server?.stop();
  data.cleanup();
});

testDatabaseKind({ name: "chroma (local server)", kind: "chroma", params: () => ({ url: server.url }), drop });

describe("chroma", () => {
  const random = seededRandom(31);

  it("creates a cosine collection that records its dimension, and checks it on open", async () => {
    const name = testCollection();
    const index = createVectorIndex("chroma", { url: server.url, collection: name, dimension: 8, efSearch: 64 });
    await index.init();
    const collection = await client.getCollection({ name, embeddingFunction: null as never });
    expect(collection.configuration.hnsw?.space).toBe("cosine");
    expect(collection.configuration.hnsw?.ef_search).toBe(64);
    expect(collection.metadata?.semcache_dimension).toBe(8);
    const other = createVectorIndex("chroma", { url: server.url, collection: name, dimension: 16 });
    const error = await other.init().catch((e: unknown) => e);
    expect(DimensionMismatchError.isInstance(error)).toBe(true);
    await index.close();
    await drop(name);
  });

  it("refuses a collection in another space", async () => {
    const name = testCollection();
    await client.createCollection({ name, embeddingFunction: null as never, configuration: { hnsw: { space: "l2" } } });
    const error = await createVectorIndex("chroma", { url: server.url, collection: name, dimension: 8 }).init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/"l2" space/);
    await drop(name);
  });

  it("is shared: two replicas see each other's entries, and a clear keeps the collection the other holds", async () => {
    const name = testCollection();
    const one = createVectorIndex("chroma", { url: server.url, collection: name, dimension: 8 });
    const two = createVectorIndex("chroma", { url: server.url, collection: name, dimension: 0 });
    await one.init();
    await two.init();
    const target = randomUnitVector(8, random);
    await two.add([{ id: 9, vector: target }]);
    expect(await one.search(target, 1)).toEqual([{ id: 9, distance: expect.closeTo(0, 4) }]);
    await one.clear();
    await two.add([{ id: 10, vector: target }]);
    expect(await one.search(target, 3)).toEqual([{ id: 10, distance: expect.closeTo(0, 4) }]);
    await Promise.all([one.close(), two.close()]);
    await drop(name);
  });

  it("maps a user's own Chroma store (cosine collection) through the bridge", async () => {
    const name = testCollection();
    const store = new Chroma(vectorsOnlyEmbeddings, {
      index: client,
      collectionName: name,
      collectionMetadata: { "hnsw:space": "cosine" },
    });
    // Chroma's delete requires its params; the bridge's structural type makes them optional.
    const index = new LangChainVectorIndex(store as unknown as LangChainVectorStoreLike, { dimension: 8 });
    await index.init();
    const query = randomUnitVector(8, random);
    await index.add([{ id: 1, vector: vectorAtCosine(query, 0.6, random) }]);
    expect(await index.search(query, 1)).toEqual([{ id: 1, distance: expect.closeTo(0.4, 4) }]);
    await index.delete([1]);
    expect(await (await client.getCollection({ name, embeddingFunction: null as never })).count()).toBe(0);
    await drop(name);
  });

  it("names the store and the server when it is down at start", async () => {
    const port = await freePort();
    const index = createVectorIndex("chroma", { url: `http://127.0.0.1:${port}`, dimension: 8 });
    const error = await index.init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).store).toBe("chroma");
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
  });

  it("fails open while the server is down and recovers when it is back, without a restart", async () => {
    const name = testCollection();
    await expectOutageRecovery({
      kinds: "sqlite,chroma",
      kind: "chroma",
      vectorParams: { url: server.url, collection: name },
      takeDown: () => server.stop(),
      restore: async () => {
        server = await startChromaServer(data.path, server.port);
      },
    });
    await drop(name);
  });
});
