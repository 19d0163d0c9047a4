/**
 * The YAML's `embedding` and `embedding_config`: GPTCache's embedding names mapped to this package's
 * embeddings (or refused, saying what to add), each one's settings checked by its reader (local models in
 * embedding-local-readers.ts, hub models and hosted APIs in embedding-hosted-readers.ts); embedding-factory.ts
 * builds the embedding.
 */
import { ValidationError } from "../core/errors.js";
import type { EmbeddingChoice } from "./embedding-choice.js";
import { DEFAULT_MODELS, PROVIDER_KEYS, readLangChain, readProvider, readTransformers, TRANSFORMERS_KEYS } from "./embedding-hosted-readers.js";
import { readFastText, readLocalOnnxText, readOnnx, readSpacy, readTimm, readUse } from "./embedding-local-readers.js";
import { requirePackages, type ReadContext } from "./read-context.js";
import type { Section } from "./section.js";

/** GPTCache's names with no equivalent here, and what to use instead. */
const REFUSED: Readonly<Record<string, string>> = {
  data2vecaudio:
    "embeds audio, which no built-in embedding here does: pass your own embedding function in code (initSimilarCache({ embedding }))",
  data2vec: "embeds audio, which no built-in embedding here does: pass your own embedding function in code (initSimilarCache({ embedding }))",
};

/** The names `embedding` accepts: this package's kinds, then GPTCache's. */
export const EMBEDDING_NAMES: readonly string[] = [
  "use",
  "wink",
  "string",
  "onnx",
  "huggingface",
  "sbert",
  "sentence-transformers",
  "transformers",
  "vit",
  "timm",
  "rwkv",
  "paddlenlp",
  "uform",
  "openai",
  "cohere",
  "langchain",
  "fasttext",
  "spacy",
];
const ALIASES: Readonly<Record<string, string>> = {
  "universal-sentence-encoder": "use",
  universal_sentence_encoder: "use",
  none: "string",
  sentence_transformers: "sentence-transformers",
};

/** Reads `embedding` (as written, any case) and its `embedding_config` into this package's terms. */
export function readEmbedding(written: string, section: Section | undefined, context: ReadContext): EmbeddingChoice {
  const lower = written.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  if (REFUSED[name] !== undefined) throw new ValidationError(`embedding: ${written} ${REFUSED[name]}.`);
  if (!EMBEDDING_NAMES.includes(name)) throw new ValidationError(`embedding must be one of: ${EMBEDDING_NAMES.join(", ")} (got "${written}").`);
  const what = `the "${name}" embedding`;
  const only = (keys: readonly string[]) => section?.only(keys, what);
  let choice: EmbeddingChoice;
  switch (name) {
    case "use":
      choice = readUse(section, what);
      break;
    case "wink":
    case "string":
      only([]);
      choice = { kind: name, settings: {} };
      break;
    case "fasttext":
      choice = readFastText(section, context);
      break;
    case "spacy":
      choice = readSpacy(section, context);
      break;
    case "rwkv":
    case "paddlenlp":
    case "uform":
      choice = readLocalOnnxText(name, section, context);
      break;
    case "onnx":
      choice = readOnnx(section, context);
      break;
    case "huggingface":
    case "sbert":
    case "sentence-transformers":
    case "transformers":
      only([...TRANSFORMERS_KEYS, "pooling"]);
      choice = { kind: "transformers", settings: readTransformers(section, DEFAULT_MODELS[name], `embedding: ${name}`) };
      requirePackages(context, `embedding: ${name}`, ["@huggingface/transformers"]);
      break;
    case "timm":
      choice = readTimm(section, context);
      break;
    case "vit":
      only(TRANSFORMERS_KEYS);
      choice = { kind: "image", settings: readTransformers(section, DEFAULT_MODELS[name], `embedding: ${name}`) };
      requirePackages(context, `embedding: ${name}`, ["@huggingface/transformers"]);
      break;
    case "openai":
      only([...PROVIDER_KEYS, "api_base", "dimensions"]);
      choice = { kind: "openai", settings: readProvider(section, context, name, "OPENAI_API_KEY", ["@langchain/openai"]) };
      break;
    case "cohere":
      only([...PROVIDER_KEYS, "embed_as"]);
      choice = { kind: "cohere", settings: readProvider(section, context, name, "COHERE_API_KEY", ["@langchain/cohere"]) };
      break;
    default:
      choice = readLangChain(section, context);
  }
  section?.done();
  return choice;
}
