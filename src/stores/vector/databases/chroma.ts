import type { ChromaClient, Collection } from "chromadb";
import { StoreError } from "../../../core/errors.js";
import { importOptional } from "../../../core/optional-import.js";
import { RECORD_ID_KEY, type VectorDatabase } from "../database-index.js";
import type { LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, hostOf, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "chroma";
const FEATURE = 'The "chroma" vector store';
/** Collection metadata recording the vector length (Chroma learns it only from the first add). */
const DIMENSION_KEY = "semcache_dimension";

type ChromaClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike & { collection?: Collection };

function isNotFound(error: unknown): boolean {
  const { name, message } = (error ?? {}) as { name?: string; message?: string };
  return name === "ChromaNotFoundError" || /does not exist|not found/i.test(String(message));
}

/**
 * Chroma (a server: `chroma run`, or Chroma Cloud) through LangChain's Chroma class: one collection in the
 * cosine space (distances are cosine distances), written with upsert, vectors passed in (no embedding function).
 *
 * vectorParams: `url` (else SEMCACHE_CHROMA_URL), `apiKey` (else SEMCACHE_CHROMA_API_KEY; sent as x-chroma-token),
 * `tenant`, `database`, `collection` (default semcache_vectors), `m` (16), `efConstruction` (100), `efSearch` (100).
 */
export function chromaDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const url = options.url("url", ["SEMCACHE_CHROMA_URL"]);
  const apiKey = options.fromEnv("apiKey", ["SEMCACHE_CHROMA_API_KEY"]);
  const tenant = options.string("tenant");
  const databaseName = options.string("database");
  const name = options.name("collection", "semcache_vectors", /^[A-Za-z0-9][A-Za-z0-9._-]{1,126}[A-Za-z0-9]$/);
  const hnsw = {
    space: "cosine" as const,
    max_neighbors: options.integer("m", 16, 2),
    ef_construction: options.integer("efConstruction", 100),
    ef_search: options.integer("efSearch", 100),
  };

  const client = new Held<ChromaClient>();
  let collection: Collection | undefined;

  /** The collection, or undefined when it does not exist. */
  async function find(): Promise<Collection | undefined> {
    try {
      return await client.get().getCollection({ name, embeddingFunction: null as never });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  return {
    kind: KIND,
    location: `${redactUrl(url)}, collection ${name}`,
    score: "cosine-distance",
    upserts: true,

    async open() {
      const { ChromaClient: Client } = await importOptional<{ ChromaClient: typeof ChromaClient }>("chromadb", FEATURE);
      const { host, port, secure } = hostOf(url, 8000);
      const chroma = client.set(
        new Client({
          host,
          port,
          ssl: secure,
          tenant,
          database: databaseName,
          headers: apiKey === undefined ? undefined : { "x-chroma-token": apiKey },
          // No per-request timeout here: fetchOptions takes one signal shared by every request, which would abort
          // them all once. A request the index gave up on ends with undici's own timeouts (300 s).
        }),
      );
      await chroma.heartbeat();
    },

    async dimension() {
      collection ??= await find();
      if (collection === undefined) return 0;
      const space = collection.configuration?.hnsw?.space ?? collection.metadata?.["hnsw:space"];
      if (space !== "cosine") {
        throw new StoreError(KIND, `collection ${name} at ${redactUrl(url)} uses the "${space ?? "l2"}" space; the cache needs "cosine"`);
      }
      const recorded = Number(collection.metadata?.[DIMENSION_KEY]);
      if (recorded > 0) return recorded;
      const sample = await collection.peek({ limit: 1 });
      return sample.embeddings?.[0]?.length ?? 0;
    },

    async store(dimension) {
      if (collection === undefined) {
        collection = await client.get().getOrCreateCollection({
          name,
          embeddingFunction: null as never,
          metadata: { [DIMENSION_KEY]: dimension },
          configuration: { hnsw },
        });
        // A Chroma 1.0 server's first read of a collection forgets which writes its index has applied, and the next
        // write applies them all again at once, which can leave an entry out of reach of every search. Read first,
        // so that a collection made here has nothing to apply again (docs/vector-stores.md, "Chroma").
        await collection.count();
      }
      const { Chroma } = await importOptional<{ Chroma: ChromaClass }>("@langchain/community/vectorstores/chroma", FEATURE);
      const store = new Chroma(vectorsOnlyEmbeddings, { index: client.get(), collectionName: name, numDimensions: dimension });
      // Handing it the collection saves a getOrCreate round trip on its first call.
      store.collection = collection;
      return store;
    },

    async count() {
      return (await find())?.count() ?? 0;
    },

    /** Deletes the records, not the collection: other replicas hold its id. */
    async clear() {
      await (await find())?.delete({ where: { [RECORD_ID_KEY]: { $ne: "" } } });
    },

    async close() {
      client.take();
      collection = undefined;
    },
  };
}
