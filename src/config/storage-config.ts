/**
 * The YAML's `storage_config.manager`: GPTCache's store names (`sqlite,faiss`, `postgresql,pgvector`, ...)
 * mapped to this package's kinds (or refused, saying what to use). `scalar_params` and `vector_params` are
 * checked per kind in storage-scalar-params.ts and storage-vector-params.ts.
 */
import { UnknownKindError, ValidationError } from "../core/errors.js";
import { DEFAULT_VECTOR_KIND, OBJECT_KINDS, SCALAR_KINDS } from "../presets/manager-factory.js";
import { VECTOR_KINDS } from "../stores/vector/kinds.js";
import type { EmbeddingKind } from "./embedding-choice.js";
import type { ReadContext } from "./read-context.js";

/** GPTCache's scalar store names (and this package's), with the kind they run as. */
const SCALARS: Readonly<Record<string, string>> = {
  sqlite: "sqlite",
  memory: "memory",
  postgres: "postgres",
  postgresql: "postgres",
  mysql: "mysql",
  mariadb: "mariadb",
  redis: "redis",
  mongodb: "mongodb",
  mongo: "mongodb",
  duckdb: "sqlite",
};

/** GPTCache's vector store names (and this package's), with the kind they run as (faiss: see `vectorKind`). */
const VECTORS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(VECTOR_KINDS.map((kind) => [kind, kind])),
  chromadb: "chroma",
  docarray: "hnswlib",
};

/** GPTCache's stores with no equivalent here. */
const REFUSED: Readonly<Record<string, string>> = {
  sqlserver: "SQL Server",
  oracle: "Oracle",
  dynamo: "DynamoDB",
  pinecone: "Pinecone",
  marqo: "Marqo",
};

/** Why a GPTCache name runs as another kind here, for the startup note. */
const MAPPED: Readonly<Record<string, string>> = {
  duckdb: "duckdb runs as sqlite (an embedded database file in the data dir)",
  docarray: "docarray runs as hnswlib (the in-process index, saved in the data dir)",
};

export interface ManagerChoice {
  /** The "scalar,vector[,object]" string in this package's terms; undefined when the file names none. */
  manager?: string;
  scalar: string;
  vector?: string;
}

/** Reads `storage_config.manager` (GPTCache's `map` included) into this package's kinds. */
export function readManager(written: string | undefined, embedding: EmbeddingKind, context: ReadContext): ManagerChoice {
  if (written === undefined) return { scalar: "sqlite", vector: embedding === "string" ? undefined : DEFAULT_VECTOR_KIND };
  const scalarStores = [...Object.keys(SCALARS), ...Object.keys(SCALAR_KINDS).filter((kind) => !(kind in SCALARS))];
  if (written.trim().toLowerCase() === "map") {
    if (embedding !== "string") {
      throw new ValidationError("storage_config.manager: map is GPTCache's exact-match map; use it with embedding: string, or a \"scalar,vector\" manager such as sqlite,usearch.");
    }
    context.notes.push("storage_config.manager: map runs as sqlite here (an exact-match store in the data dir).");
    return { manager: "sqlite", scalar: "sqlite" };
  }
  const [scalarName, vectorName, objectName, ...rest] = written.split(",").map((part) => part.trim().toLowerCase());
  if (!scalarName || rest.length > 0) throw new ValidationError(`storage_config.manager: "${written}" is not a "scalar,vector[,object]" string.`);
  const reasons: string[] = [];
  const scalar = kindOf(scalarName, "scalar", SCALARS, scalarStores, SCALAR_KINDS, reasons);
  const vector = vectorName ? vectorKind(vectorName, context, reasons) : undefined;
  if (objectName && !Object.prototype.hasOwnProperty.call(OBJECT_KINDS, objectName)) throw new UnknownKindError("object store", objectName, Object.keys(OBJECT_KINDS));
  const manager = [scalar, vector ?? (objectName ? "" : undefined), objectName].filter((part) => part !== undefined).join(",");
  if (reasons.length > 0) context.notes.push(`storage_config.manager: "${written}" runs as "${manager}" here: ${reasons.join("; ")}.`);
  return { manager, scalar, vector };
}

function kindOf(name: string, category: string, names: Readonly<Record<string, string>>, known: string[], registry: object, reasons: string[]): string {
  if (REFUSED[name] !== undefined) {
    throw new ValidationError(`storage_config.manager: GPTCache's ${name} store (${REFUSED[name]}) is not supported here; use one of: ${known.join(", ")}.`);
  }
  if (MAPPED[name] !== undefined) reasons.push(MAPPED[name]);
  // A kind a user registered in SCALAR_KINDS at run time is theirs to build.
  if (names[name] === undefined && !Object.prototype.hasOwnProperty.call(registry, name)) throw new UnknownKindError(`${category} store`, name, known);
  return names[name] ?? name;
}

/** faiss runs when faiss-node is installed, else the in-process HNSW index answers the same searches. */
function vectorKind(name: string, context: ReadContext, reasons: string[]): string {
  if (name === "faiss") {
    const missing = ["faiss-node", "@langchain/community"].find((pkg) => !context.installed(pkg));
    if (missing === undefined) return "faiss";
    reasons.push(`faiss runs as hnswlib (the in-process HNSW index, saved in the data dir) since ${missing} is not installed (npm install ${missing} to use FAISS)`);
    return "hnswlib";
  }
  return kindOf(name, "vector", VECTORS, Object.keys(VECTORS), {}, reasons);
}
