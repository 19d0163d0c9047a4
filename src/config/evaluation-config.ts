/**
 * The YAML's `evaluation` and `evaluation_config`: GPTCache's evaluation names mapped to this package's
 * judges (or refused, saying what to add), their settings checked per kind, and the judge built.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { ValidationError } from "../core/errors.js";
import { packageOf } from "../core/optional-import.js";
import type { EmbeddingSource } from "../core/embedding-source.js";
import { CrossEncoderEvaluation } from "../similarity/cross-encoder.js";
import { DistanceEvaluation } from "../similarity/distance.js";
import { EmbeddingDistanceEvaluation } from "../similarity/embedding-distance.js";
import { ExactMatchEvaluation } from "../similarity/exact-match.js";
import { KReciprocalEvaluation } from "../similarity/k-reciprocal.js";
import { LLMJudgeEvaluation } from "../similarity/llm-judge.js";
import { OnnxModelEvaluation } from "../similarity/onnx.js";
import { PrecisionGuardEvaluation } from "../similarity/precision-guard.js";
import { presetEvaluation } from "../similarity/preset.js";
import { RerankEvaluation } from "../similarity/rerank.js";
import { SequenceMatchEvaluation } from "../similarity/sequence-match.js";
import { TimeEvaluation } from "../similarity/time.js";
import type { SimilarityEvaluation } from "../core/contracts/evaluation.js";
import { UnambiguousEvaluation } from "../similarity/unambiguous.js";
import type { EmbeddingChoice, EmbeddingKind } from "./embedding-choice.js";
import { readEmbedding } from "./embedding-config.js";
import { createEmbedding } from "./embedding-factory.js";
import { lazyChatModel } from "./langchain-class.js";
import { defined, isPathLike, requireFile, requirePackages, type ReadContext } from "./read-context.js";
import { Section } from "./section.js";

/** This package's judges, as a checked config names them. */
export type EvaluationKind =
  | "distance"
  | "exact"
  | "time"
  | "kreciprocal"
  | "onnx"
  | "cross_encoder"
  | "sequence_match"
  | "rerank"
  | "preset"
  | "precision_guard"
  | "unambiguous"
  | "embedding_distance"
  | "llm_judge";

/** A judge in this package's terms: its kind, its options, and the judge or embedding it wraps. */
export interface EvaluationChoice {
  kind: EvaluationKind;
  options: Record<string, unknown>;
  inner?: EvaluationChoice;
  embedding?: EmbeddingChoice;
}

/** Every name `evaluation` accepts (this package's kinds and GPTCache's), with the kind it runs as. */
const NAMES: Readonly<Record<string, EvaluationKind>> = {
  distance: "distance",
  np: "distance",
  numpy: "distance",
  exact: "exact",
  time: "time",
  kreciprocal: "kreciprocal",
  onnx: "onnx",
  cross_encoder: "cross_encoder",
  sbert_crossencoder: "cross_encoder",
  sequence_match: "sequence_match",
  cohere: "rerank",
  rerank: "rerank",
  preset: "preset",
  precision_guard: "precision_guard",
  unambiguous: "unambiguous",
  embedding_distance: "embedding_distance",
  llm_judge: "llm_judge",
};
export const EVALUATION_NAMES: readonly string[] = Object.keys(NAMES);

/** The keys each kind takes in evaluation_config (GPTCache's names where it has them). */
const KEYS: Readonly<Record<EvaluationKind, readonly string[]>> = {
  distance: [],
  exact: [],
  time: ["time_range", "evaluation", "evaluation_config"],
  kreciprocal: ["top_k", "max_distance", "positive"],
  onnx: ["model", "model_path", "tokenizer_path", "max_length"],
  cross_encoder: ["model", "model_path", "tokenizer_path", "max_length"],
  sequence_match: ["weights", "cache_size"],
  rerank: ["model", "api_key", "base_url", "api_version", "timeout_ms"],
  preset: [],
  precision_guard: ["cosine_weight"],
  unambiguous: ["evaluation", "evaluation_config", "temperature"],
  embedding_distance: ["embedding", "embedding_config", "cache_size"],
  llm_judge: ["module", "class", "params", "prompt", "cache_size"],
};

const GPTCACHE_PAIR_MODEL = "GPTCache/albert-duplicate-onnx";
const DEFAULT_RERANK_MODEL = "rerank-v3.5";

export interface EvaluationReadContext extends ReadContext {
  /** The cache's embedding kind (judges fitted on one embedding, or needing vectors, check it). */
  embedding: EmbeddingKind;
}

/** Reads `evaluation` (as written, any case) and its settings (`evaluation_config` as written) into this package's terms. */
export function readEvaluation(written: string, config: Record<string, unknown> | undefined, context: EvaluationReadContext, path = "evaluation_config"): EvaluationChoice {
  const kind = NAMES[written.toLowerCase()];
  if (kind === undefined) throw new ValidationError(`${path === "evaluation_config" ? "evaluation" : `${path}.evaluation`} must be one of: ${EVALUATION_NAMES.join(", ")} (got "${written}").`);
  const section = new Section(config ?? {}, path);
  if (kind === "distance" && (section.has("max_distance") || section.has("positive"))) {
    throw new ValidationError(
      `${path}: max_distance and positive set GPTCache's distance scale; here "distance" scores the cosine similarity on [0, 1], so the bar is config.similarity_threshold alone.`,
    );
  }
  section.only(KEYS[kind], `evaluation: ${written}`);
  const needsVectors = kind === "kreciprocal" || kind === "sequence_match";
  if (needsVectors && context.embedding === "string") throw new ValidationError(`evaluation: ${written} compares vectors; the string embedding has none.`);
  const choice = readKind(kind, written, section, context, path);
  section.done();
  if (written.toLowerCase() === "np" || written.toLowerCase() === "numpy") {
    context.notes.push(
      `evaluation: ${written} runs as distance here (the cosine similarity on [0, 1]): GPTCache's numpy norm ranks candidates the same way, on [0, 2].`,
    );
  }
  return choice;
}

function readKind(kind: EvaluationKind, written: string, section: Section, context: EvaluationReadContext, path: string): EvaluationChoice {
  const inner = () => readEvaluation(section.string("evaluation") ?? "distance", section.mapping("evaluation_config"), context, `${path}.evaluation_config`);
  switch (kind) {
    case "time":
      return { kind, options: { timeRangeSeconds: section.positiveNumber("time_range") }, inner: inner() };
    case "kreciprocal":
      return { kind, options: { topK: section.positiveInteger("top_k"), maxDistance: section.positiveNumber("max_distance"), positive: section.boolean("positive") } };
    case "onnx":
    case "cross_encoder":
      return readPairModel(kind, written, section, context);
    case "sequence_match": {
      const weights = section.positiveNumberList("weights");
      if (weights === undefined) throw new ValidationError(`evaluation: ${written} needs ${path}.weights: one positive weight per round, the latest first (e.g. [0.6, 0.3, 0.1]).`);
      return { kind, options: { weights, cacheSize: section.nonNegativeInteger("cache_size") } };
    }
    case "rerank": {
      const baseUrl = section.string("base_url");
      const apiKey = section.string("api_key") ?? context.env.COHERE_API_KEY;
      if (!apiKey && baseUrl === undefined) throw new ValidationError(`evaluation: ${written} needs COHERE_API_KEY (or ${path}.api_key), or base_url: a compatible rerank server.`);
      const apiVersion = section.string("api_version", ["v1", "v2"]);
      return { kind, options: { model: section.string("model") ?? DEFAULT_RERANK_MODEL, apiKey, baseUrl, apiVersion, timeoutMs: section.positiveInteger("timeout_ms") } };
    }
    case "preset":
    case "precision_guard":
      if (context.embedding !== "use") {
        throw new ValidationError(`evaluation: ${written} was fitted on the Universal Sentence Encoder's cosines: use it with embedding: use (the ${context.embedding} embedding is configured).`);
      }
      return { kind, options: kind === "preset" ? {} : { cosineWeight: section.numberIn("cosine_weight", 0, 1) } };
    case "unambiguous":
      return { kind, options: { temperature: section.positiveNumber("temperature") }, inner: inner() };
    case "embedding_distance": {
      const name = section.string("embedding");
      if (name === undefined) throw new ValidationError(`evaluation: ${written} needs ${path}.embedding (and its embedding_config): the embedding that judges.`);
      const embedding = readEmbedding(name, section.section("embedding_config"), context);
      return { kind, options: { cacheSize: section.nonNegativeInteger("cache_size") }, embedding };
    }
    case "llm_judge": {
      const module = section.string("module");
      const className = section.string("class");
      if (module === undefined || className === undefined) {
        throw new ValidationError(`evaluation: ${written} needs ${path}.module and class naming a LangChain chat model, e.g. module: "@langchain/openai", class: ChatOpenAI, params: { model: gpt-4o-mini, temperature: 0 }.`);
      }
      requirePackages(context, `evaluation: ${written}`, [packageOf(module)]);
      return { kind, options: { module, className, params: section.mapping("params"), prompt: section.string("prompt"), cacheSize: section.nonNegativeInteger("cache_size") } };
    }
    default:
      return { kind, options: {} };
  }
}

/**
 * GPTCache's onnx judge (albert-duplicate) and sentence-transformers cross-encoders, from local ONNX files. With
 * none configured, `onnx` over the default embedding runs the preset judge (a pair model fitted on its cosines)
 * and a note says so; anything else is refused with the keys to set.
 */
function readPairModel(kind: "onnx" | "cross_encoder", written: string, section: Section, context: EvaluationReadContext): EvaluationChoice {
  const model = section.string("model");
  const modelPath = section.string("model_path");
  const path = section.path;
  if (modelPath === undefined && (model === undefined || !isPathLike(model))) {
    if (kind === "onnx" && (model === undefined || model === GPTCACHE_PAIR_MODEL) && context.embedding === "use") {
      context.notes.push(
        "evaluation: onnx runs as preset here (the precision guard, a pair model fitted on the Universal Sentence Encoder): " +
          `no local pair model is configured (${path}.model_path), and GPTCache's albert-duplicate-onnx does not run here.`,
      );
      return { kind: "preset", options: {} };
    }
    const example = kind === "onnx" ? "an ONNX export of GPTCache/albert-duplicate-onnx" : "an ONNX export of cross-encoder/quora-distilroberta-base";
    throw new ValidationError(
      `evaluation: ${written} needs a local pair model: ${path}.model (a folder with tokenizer.json and onnx/model.onnx) or ${path}.model_path and tokenizer_path (${example}), and the onnxruntime-node package.`,
    );
  }
  if (modelPath !== undefined && model !== undefined) throw new ValidationError(`${path}: set model (a folder) or model_path, not both.`);
  let files: { modelPath: string; tokenizerPath: string };
  if (model !== undefined) {
    const nested = join(model, "onnx", "model.onnx");
    files = { modelPath: existsSync(nested) ? nested : join(model, "model.onnx"), tokenizerPath: join(model, "tokenizer.json") };
    requireFile(files.modelPath, `${path}.model`);
    requireFile(files.tokenizerPath, `${path}.model (its tokenizer.json)`);
  } else {
    files = { modelPath: modelPath as string, tokenizerPath: section.string("tokenizer_path") ?? join(dirname(modelPath as string), "tokenizer.json") };
    requireFile(files.modelPath, `${path}.model_path`);
    requireFile(files.tokenizerPath, `${path}.tokenizer_path`);
  }
  requirePackages(context, `evaluation: ${written}`, ["onnxruntime-node"]);
  return { kind, options: { ...files, maxLength: section.positiveInteger("max_length") } };
}

/**
 * The judge a checked choice describes; `embedding` is the cache's own (sequence_match embeds rounds with it).
 * `preset` at the top gives undefined, so initSimilarCache sets the preset judge with its own threshold.
 */
export function createEvaluation(choice: EvaluationChoice, embedding: EmbeddingSource, top = true): SimilarityEvaluation | undefined {
  const o = defined(choice.options);
  const inner = () => createEvaluation(choice.inner as EvaluationChoice, embedding, false) as SimilarityEvaluation;
  switch (choice.kind) {
    case "distance":
      return new DistanceEvaluation();
    case "exact":
      return new ExactMatchEvaluation();
    case "time":
      return new TimeEvaluation({ evaluation: inner(), timeRangeSeconds: o.timeRangeSeconds as number | undefined });
    case "kreciprocal":
      return new KReciprocalEvaluation(o);
    case "onnx":
      return new OnnxModelEvaluation(o as { modelPath: string; tokenizerPath: string });
    case "cross_encoder":
      return new CrossEncoderEvaluation(o as { modelPath: string; tokenizerPath: string });
    case "sequence_match":
      return new SequenceMatchEvaluation({ weights: o.weights as number[], embedding, cacheSize: o.cacheSize as number | undefined });
    case "rerank":
      return new RerankEvaluation(o as { model: string });
    case "preset":
      return top ? undefined : presetEvaluation();
    case "precision_guard":
      return new PrecisionGuardEvaluation(o);
    case "unambiguous":
      return new UnambiguousEvaluation({ evaluation: inner(), temperature: o.temperature as number | undefined });
    case "embedding_distance":
      return new EmbeddingDistanceEvaluation({ embeddings: createEmbedding(choice.embedding as EmbeddingChoice), cacheSize: o.cacheSize as number | undefined });
    case "llm_judge": {
      const spec = { module: o.module as string, className: o.className as string, params: o.params as Record<string, unknown> | undefined };
      return new LLMJudgeEvaluation(defined({ model: lazyChatModel(spec, "evaluation: llm_judge"), prompt: o.prompt, cacheSize: o.cacheSize }) as never);
    }
  }
}
