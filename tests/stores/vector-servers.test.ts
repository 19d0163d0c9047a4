/**
 * The vector databases with no server on this machine (Qdrant, Milvus, Redis with vector search, Weaviate,
 * Elasticsearch, OpenSearch, MongoDB Atlas): what runs here is their real client failing clearly against a closed
 * port or a server without vector search; the full contract runs when SEMCACHE_TEST_<KIND>_URL names a server.
 */
import { jest } from "@jest/globals";
import { StoreError, ValidationError } from "../../src/core/errors.js";
import { createVectorIndex, VECTOR_KINDS, type VectorIndexParams } from "../../src/stores/vector/kinds.js";
import { freePort } from "../helpers/local-services.js";
import { serverUrl, testDatabaseKind } from "../helpers/vector-database.js";

jest.setTimeout(60_000);

interface ServerKind {
  kind: string;
  variable: string;
  /** Environment variables the kind reads its URL from. */
  urlVariables: string[];
  /** A URL at a closed port, with a secret that must not appear in messages. */
  closedUrl: (port: number) => string;
  extra?: Partial<VectorIndexParams>;
  /** Extra options for the contract run (e.g. a class name in Weaviate's rules). */
  contract?: Partial<VectorIndexParams>;
}

const KINDS: ServerKind[] = [
  { kind: "qdrant", variable: "SEMCACHE_TEST_QDRANT_URL", urlVariables: ["SEMCACHE_QDRANT_URL"], closedUrl: (port) => `http://127.0.0.1:${port}`, extra: { apiKey: "secret-key" } },
  { kind: "milvus", variable: "SEMCACHE_TEST_MILVUS_URL", urlVariables: ["SEMCACHE_MILVUS_URL"], closedUrl: (port) => `http://127.0.0.1:${port}`, extra: { token: "secret-key" } },
  { kind: "redis", variable: "SEMCACHE_TEST_REDIS_STACK_URL", urlVariables: ["SEMCACHE_REDIS_URL"], closedUrl: (port) => `redis://:secret-key@127.0.0.1:${port}` },
  { kind: "weaviate", variable: "SEMCACHE_TEST_WEAVIATE_URL", urlVariables: ["SEMCACHE_WEAVIATE_URL"], closedUrl: (port) => `http://127.0.0.1:${port}`, extra: { apiKey: "secret-key" } },
  { kind: "elasticsearch", variable: "SEMCACHE_TEST_ELASTICSEARCH_URL", urlVariables: ["SEMCACHE_ELASTICSEARCH_URL"], closedUrl: (port) => `http://elastic:secret-key@127.0.0.1:${port}` },
  { kind: "opensearch", variable: "SEMCACHE_TEST_OPENSEARCH_URL", urlVariables: ["SEMCACHE_OPENSEARCH_URL"], closedUrl: (port) => `http://admin:secret-key@127.0.0.1:${port}` },
  {
    kind: "mongodb-atlas",
    variable: "SEMCACHE_TEST_MONGODB_ATLAS_URL",
    urlVariables: ["SEMCACHE_MONGODB_ATLAS_URL", "SEMCACHE_MONGODB_URL"],
    closedUrl: (port) => `mongodb://user:secret-key@127.0.0.1:${port}/?directConnection=true`,
    extra: { connectTimeoutMs: 1000 },
  },
];

describe.each(KINDS)("$kind", ({ kind, urlVariables, closedUrl, extra }) => {
  it("is a known kind", () => {
    expect(VECTOR_KINDS).toContain(kind);
  });

  it("names the store and the server when it is down at start, without the secret", async () => {
    const port = await freePort();
    const index = createVectorIndex(kind, { ...extra, url: closedUrl(port), dimension: 8 });
    const error = await index.init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).store).toBe(kind);
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
    expect((error as Error).message).toMatch(/cannot connect/);
    expect((error as Error).message).not.toContain("secret-key");
    await index.close();
  });

  it("says which setting or environment variable gives it a server", () => {
    const saved = urlVariables.map((name) => [name, process.env[name]] as const);
    for (const name of urlVariables) delete process.env[name];
    try {
      expect(() => createVectorIndex(kind, { dimension: 8 })).toThrow(ValidationError);
      expect(() => createVectorIndex(kind, { dimension: 8 })).toThrow(new RegExp(`vectorParams.url or set ${urlVariables[0]}`));
    } finally {
      for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
    }
  });
});

describe("options checked before anything connects", () => {
  it("refuses names a server would reject or misread", () => {
    expect(() => createVectorIndex("weaviate", { url: "http://127.0.0.1:1", collection: "lowercase", dimension: 8 })).toThrow(/vectorParams.collection/);
    expect(() => createVectorIndex("elasticsearch", { url: "http://127.0.0.1:1", collection: "Upper", dimension: 8 })).toThrow(ValidationError);
    expect(() => createVectorIndex("qdrant", { url: "not a url", dimension: 8 })).toThrow(/vectorParams.url must be a URL/);
    expect(() => createVectorIndex("milvus", { url: "http://127.0.0.1:1", ef: 0, dimension: 8 })).toThrow(/vectorParams.ef must be an integer >= 1/);
  });
});

const plainRedis = serverUrl("SEMCACHE_TEST_REDIS_URL", "the redis vector kind against a Redis without vector search");
(plainRedis ? it : it.skip)("refuses a Redis without vector search at start, saying what it needs", async () => {
  const index = createVectorIndex("redis", { url: plainRedis, dimension: 8 });
  const error = await index.init().catch((e: unknown) => e);
  expect(StoreError.isInstance(error)).toBe(true);
  expect((error as Error).message).toMatch(/no vector search .*Redis 8, Redis Stack or the RediSearch module/);
  await index.close();
});

for (const { kind, variable, contract } of KINDS) {
  const url = serverUrl(variable, `the ${kind} contract`);
  if (!url) continue;
  // Contract collections are emptied by the suite; a real server keeps the (small) collections it created.
  testDatabaseKind({
    name: `${kind} (${variable})`,
    kind,
    params: () => ({ url, ...contract }),
    minRecall: kind === "mongodb-atlas" ? 0.9 : undefined,
  });
}
