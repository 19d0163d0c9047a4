import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import { RECORD_ID_KEY, type VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, hostOf, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "weaviate";
const FEATURE = 'The "weaviate" vector store';
const TEXT = "text";

/*
 * The parts of weaviate-client used here, typed locally: its type declarations pull in cross-fetch's, which load
 * the DOM library into the whole program.
 */
interface WeaviateCollection {
  config: { get(): Promise<{ description?: string; vectorizers?: Record<string, { indexConfig?: unknown }> }> };
  aggregate: { overAll(): Promise<{ totalCount: number }> };
}
interface WeaviateClient {
  collections: {
    exists(name: string): Promise<boolean>;
    get(name: string): WeaviateCollection;
    create(config: Record<string, unknown>): Promise<unknown>;
    delete(name: string): Promise<void>;
  };
  close(): Promise<void>;
}
interface WeaviateModule {
  connectToCustom(options: Record<string, unknown>): Promise<WeaviateClient>;
  ApiKey: new (key: string) => unknown;
  configure: {
    dataType: { TEXT: string };
    vectorizer: { none(options: Record<string, unknown>): unknown };
    vectorIndex: { hnsw(options: Record<string, unknown>): unknown };
  };
}
type WeaviateStoreClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike;

/**
 * Weaviate through LangChain's WeaviateStore, in a class (collection) with its own schema created here: properties
 * `text` and `semcacheId`, no vectorizer (vectors are passed in), an HNSW index with the cosine distance (scores
 * are cosine distances), and the dimension recorded in the class description.
 *
 * vectorParams: `url` (else SEMCACHE_WEAVIATE_URL; the REST endpoint, e.g. http://localhost:8080), `grpcUrl`
 * (else SEMCACHE_WEAVIATE_GRPC_URL; default the REST host on port 50051), `apiKey` (else SEMCACHE_WEAVIATE_API_KEY),
 * `collection` (class name, capitalised, default SemcacheVectors), `m` (maxConnections, 16), `efConstruction`
 * (128), `ef` (search, 100).
 */
export function weaviateDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_WEAVIATE_URL"]);
  const rest = hostOf(url, 8080);
  const grpcUrl = options.fromEnv("grpcUrl", ["SEMCACHE_WEAVIATE_GRPC_URL"]) ?? `${rest.secure ? "https" : "http"}://${rest.host}:50051`;
  const apiKey = options.fromEnv("apiKey", ["SEMCACHE_WEAVIATE_API_KEY"]);
  const className = options.name("collection", "SemcacheVectors", /^[A-Z][A-Za-z0-9_]{0,254}$/);
  const hnsw = { distanceMetric: "cosine" as const, maxConnections: options.integer("m", 16, 2), efConstruction: options.integer("efConstruction", 128, 4), ef: options.integer("ef", 100) };
  const timeoutSeconds = Math.ceil(options.timeoutMs() / 1000);

  let weaviate: WeaviateModule | undefined;
  const client = new Held<WeaviateClient>();

  return {
    kind: KIND,
    location: `${redactUrl(url)}, class ${className}`,
    score: "cosine-distance",
    upserts: false,

    async open() {
      weaviate = (await importOptional<{ default: WeaviateModule }>("weaviate-client", FEATURE)).default;
      const grpc = hostOf(grpcUrl, 50051);
      client.set(
        await weaviate.connectToCustom({
          httpHost: rest.host,
          httpPort: rest.port,
          httpSecure: rest.secure,
          httpPath: rest.path || undefined,
          grpcHost: grpc.host,
          grpcPort: grpc.port,
          grpcSecure: grpc.secure,
          authCredentials: apiKey === undefined ? undefined : new weaviate.ApiKey(apiKey),
          // Its request timeouts, in whole seconds.
          timeout: { init: timeoutSeconds, query: timeoutSeconds, insert: timeoutSeconds },
        }),
      );
    },

    async dimension() {
      const weaviateClient = client.get();
      if (!(await weaviateClient.collections.exists(className))) return 0;
      const config = await weaviateClient.collections.get(className).config.get();
      const distance = Object.values(config.vectorizers ?? {})[0]?.indexConfig as { distance?: string } | undefined;
      if (distance?.distance !== undefined && distance.distance !== "cosine") {
        throw new StoreError(KIND, `class ${className} at ${redactUrl(url)} uses the ${distance.distance} distance; the cache needs cosine`);
      }
      return Number(/dimension (\d+)/.exec(config.description ?? "")?.[1]) || 0;
    },

    async store(dimension) {
      const weaviateClient = client.get();
      const { configure } = weaviate!;
      if (!(await weaviateClient.collections.exists(className))) {
        await weaviateClient.collections.create({
          name: className,
          description: `langchain-semcache vectors (dimension ${dimension})`,
          properties: [
            { name: TEXT, dataType: configure.dataType.TEXT },
            { name: RECORD_ID_KEY, dataType: configure.dataType.TEXT, indexSearchable: false },
          ],
          vectorizers: configure.vectorizer.none({ vectorIndexConfig: configure.vectorIndex.hnsw(hnsw) }),
        });
      }
      const { WeaviateStore } = await importOptional<{ WeaviateStore: WeaviateStoreClass }>("@langchain/weaviate", FEATURE);
      return new WeaviateStore(vectorsOnlyEmbeddings, {
        client: weaviateClient,
        indexName: className,
        textKey: TEXT,
        metadataKeys: [RECORD_ID_KEY],
      });
    },

    async count() {
      const weaviateClient = client.get();
      if (!(await weaviateClient.collections.exists(className))) return 0;
      return (await weaviateClient.collections.get(className).aggregate.overAll()).totalCount;
    },

    async clear() {
      // The class goes with its objects; store() creates it again at once (replicas address it by name).
      const weaviateClient = client.get();
      if (await weaviateClient.collections.exists(className)) await weaviateClient.collections.delete(className);
    },

    async close() {
      await client.take()?.close();
    },
  };
}
