import type * as LanceDBModule from "@lancedb/lancedb";
import type { Connection, Table } from "@lancedb/lancedb";
import type * as Arrow from "apache-arrow";
import { importOptional } from "../../../core/optional-import.js";
import { RECORD_ID_KEY, type VectorDatabase } from "../database-index.js";
import type { LangChainDocument, LangChainVectorStoreLike } from "../store-profiles.js";
import { vectorsOnlyEmbeddings } from "../vectors-only-embeddings.js";
import { DatabaseOptions, Held, redactUrl, type DatabaseParams } from "./options.js";

const KIND = "lancedb";
const FEATURE = 'The "lancedb" vector store';

type LanceModule = typeof LanceDBModule;
type LanceDBClass = new (embeddings: unknown, args: Record<string, unknown>) => LangChainVectorStoreLike & { table?: Table };

/** The record id in a document id made by uuidFromId (its last 12 hex digits). */
function recordIdOfUuid(documentId: string): number {
  return parseInt(documentId.slice(-12), 16);
}

/**
 * LangChain's LanceDB class searches with LanceDB's default metric (squared L2) and reads a `score` field LanceDB
 * does not return (it returns `_distance`), appends a second row when an id is added again, and cannot delete.
 * This subclass searches by cosine distance and returns it, and upserts by record id (one merge-insert commit,
 * cheap with the id column's BTREE index). Built once the class is loaded.
 */
function cosineLanceDB(LanceDB: LanceDBClass, ef: number): LanceDBClass {
  return class CosineLanceDB extends LanceDB {
    readonly distanceType = "cosine";

    override async addVectors(vectors: number[][], documents: LangChainDocument[]): Promise<void> {
      const rows = vectors.map((vector, i) => ({ vector, text: documents[i].pageContent, [RECORD_ID_KEY]: documents[i].metadata[RECORD_ID_KEY] }));
      await this.table!.mergeInsert(RECORD_ID_KEY).whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
    }

    /**
     * Once the table has its index: `ef` candidates (LanceDB's default found the true neighbour of only 53% of
     * near-duplicate queries at 10k 512-d here, ef 100 of 100%), and distances recomputed from the full vectors
     * (the index holds 8-bit quantised ones, too coarse for a similarity threshold).
     */
    override async similaritySearchVectorWithScore(query: number[], k: number): Promise<Array<[LangChainDocument, number]>> {
      const rows = await this.table!.query().nearestTo(query).distanceType("cosine").ef(Math.max(ef, k)).refineFactor(1).limit(k).toArray();
      return rows.map((row: Record<string, unknown>) => [
        { pageContent: String(row.text ?? ""), metadata: { [RECORD_ID_KEY]: row[RECORD_ID_KEY] } },
        Number(row._distance),
      ]);
    }
  };
}

/** Batches at least this large are checked for the index threshold at once (an import crossing it). */
const LARGE_WRITE = 500;

/**
 * What a cache's many small writes need from LanceDB: every add or delete writes a new fragment and searches slow
 * down as they pile up, so the table is compacted now and then; and a flat scan of 10k 512-d vectors takes ~40 ms
 * here, so an HNSW index (scalar-quantised, cosine) is built in the background once the table is large. Rows added
 * after the build are searched by a scan until the next compaction folds them into the index. Upkeep failures
 * never fail the write that triggered them: a later round retries.
 */
class TableUpkeep {
  private writes = 0;
  private indexed = false;
  private indexing?: Promise<void>;

  constructor(
    private readonly table: Table,
    private readonly lancedb: LanceModule,
    private readonly optimizeEvery: number,
    private readonly indexAfter: number,
  ) {}

  async opened(): Promise<this> {
    this.indexed = (await this.table.listIndices()).some((index) => index.columns.includes("vector"));
    return this;
  }

  async wrote(rows: number): Promise<void> {
    const due = ++this.writes % this.optimizeEvery === 0;
    if (due) await this.compact().catch(() => undefined);
    if ((due || rows >= LARGE_WRITE) && !this.indexed && this.indexing === undefined) {
      if ((await this.table.countRows()) >= this.indexAfter) this.buildIndex();
    }
  }

  private buildIndex(): void {
    const config = this.lancedb.Index.hnswSq({ distanceType: "cosine" });
    this.indexing = this.table.createIndex("vector", { config }).then(
      () => {
        this.indexed = true;
        this.indexing = undefined;
      },
      () => {
        this.indexing = undefined;
      },
    );
  }

  private compact(): Promise<unknown> {
    return this.table.optimize({ cleanupOlderThan: new Date() });
  }

  /** Waits for an index being built, then compacts (folding new rows into the index). */
  async settle(): Promise<void> {
    await this.idle();
    await this.compact();
  }

  /** Waits for an index being built (closing the table under it would abandon the build). */
  async idle(): Promise<void> {
    await this.indexing;
  }
}

/**
 * LanceDB embedded (a folder, or an object-store URI such as s3://bucket/path) through LangChain's LanceDB class:
 * one table (vector FixedSizeList<Float32>, text, semcacheId) searched by cosine distance: a scan while it is
 * small, an HNSW index from `indexAfter` rows on (see TableUpkeep).
 *
 * vectorParams: `uri` (else SEMCACHE_LANCEDB_URI, else `path`, which the factory sets to dataDir/lancedb);
 * `collection` (table, default semcache_vectors); `optimizeEvery` (compact the table's files after this many
 * writes, default 50); `indexAfter` (rows from which an HNSW index is built in the background, default 5000);
 * `ef` (HNSW search candidates, default 100);
 * `readConsistencyIntervalSeconds` (seconds between checks for other processes' writes; default 0, every read checks,
 * so replicas sharing the table see each other's entries).
 */
export function lancedbDatabase(params: DatabaseParams): VectorDatabase {
  const options = new DatabaseOptions(KIND, params);
  const uri = options.fromEnv("uri", ["SEMCACHE_LANCEDB_URI"]) ?? options.string("path", "./semcache_data/lancedb");
  const tableName = options.name("collection", "semcache_vectors");
  const optimizeEvery = options.integer("optimizeEvery", 50);
  const readConsistencyIntervalSeconds = options.integer("readConsistencyIntervalSeconds", 0, 0);
  const indexAfter = options.integer("indexAfter", 5000);
  const ef = options.integer("ef", 100);

  let lancedb: LanceModule | undefined;
  const connection = new Held<Connection>();
  let table: Table | undefined;
  let upkeep: TableUpkeep | undefined;
  let arrow: typeof Arrow | undefined;

  async function adopt(opened: Table): Promise<Table> {
    table = opened;
    upkeep = await new TableUpkeep(opened, lancedb!, optimizeEvery, indexAfter).opened();
    return opened;
  }

  return {
    kind: KIND,
    location: `${redactUrl(uri)}, table ${tableName}`,
    score: "cosine-distance",
    upserts: true,
    // Both wait for an HNSW build, minutes on a large table, that runs in this process: no server to fall silent.
    slowStepsMs: { flush: Infinity, close: Infinity },

    async open() {
      lancedb = await importOptional<LanceModule>("@lancedb/lancedb", FEATURE);
      arrow = await importOptional<typeof Arrow>("apache-arrow", FEATURE);
      connection.set(await lancedb.connect(uri, { readConsistencyInterval: readConsistencyIntervalSeconds }));
    },

    async dimension() {
      if (table === undefined) {
        if (!(await connection.get().tableNames()).includes(tableName)) return 0;
        await adopt(await connection.get().openTable(tableName));
      }
      const field = (await table!.schema()).fields.find((candidate) => candidate.name === "vector");
      return (field?.type as { listSize?: number } | undefined)?.listSize ?? 0;
    },

    async store(dimension) {
      if (table === undefined) {
        const { Schema, Field, FixedSizeList, Float32, Utf8 } = arrow!;
        const schema = new Schema([
          new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), false),
          new Field("text", new Utf8(), true),
          new Field(RECORD_ID_KEY, new Utf8(), false),
        ]);
        const created = await connection.get().createEmptyTable(tableName, schema, { existOk: true });
        // Upserts and deletes find rows by id: without this index each is a scan of the whole table.
        if (!(await created.listIndices()).some((index) => index.columns.includes(RECORD_ID_KEY))) {
          await created.createIndex(RECORD_ID_KEY, { config: lancedb!.Index.btree() });
        }
        await adopt(created);
      }
      const { LanceDB } = await importOptional<{ LanceDB: LanceDBClass }>("@langchain/community/vectorstores/lancedb", FEATURE);
      const store = new (cosineLanceDB(LanceDB, ef))(vectorsOnlyEmbeddings, { table, textKey: "text" });
      const add = store.addVectors.bind(store);
      store.addVectors = async (vectors, ...rest) => {
        await add(vectors, ...rest);
        await upkeep?.wrote(vectors.length);
      };
      return store;
    },

    async delete(documentIds) {
      if (table === undefined) return;
      const list = documentIds.map((documentId) => `'${recordIdOfUuid(documentId)}'`).join(", ");
      await table.delete(`${RECORD_ID_KEY} IN (${list})`);
      await upkeep?.wrote(documentIds.length);
    },

    async count() {
      return table === undefined ? 0 : table.countRows();
    },

    async clear() {
      await table?.delete("true");
      await upkeep?.wrote(0);
    },

    async flush() {
      await upkeep?.settle();
    },

    async close() {
      await upkeep?.idle();
      table?.close();
      connection.take()?.close();
      table = undefined;
      upkeep = undefined;
    },
  };
}
