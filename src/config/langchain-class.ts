/**
 * LangChain classes a config names by module and export (`module: "@langchain/ollama"`, `class:
 * OllamaEmbeddings`), created on first use: reading a config stays synchronous and loads no package, and a
 * package missing at start is a MissingDependencyError naming it.
 */
import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { BaseMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { ValidationError } from "../core/errors.js";
import { importOptional } from "../core/optional-import.js";
import { isLangChainEmbeddings, LangChainEmbeddingFunction, type EmbeddingsLike, type LangChainEmbeddingOptions } from "../core/embedding-source.js";
import type { EmbeddingFunction, EmbeddingInput } from "../core/contracts/embedding.js";
import type { JudgeModel } from "../similarity/llm-judge.js";

/** A class exported by a module, and the options its constructor takes. */
export interface ClassSpec {
  module: string;
  className: string;
  params?: Record<string, unknown>;
}

/** Imports the module and constructs its export; `feature` names what needs it in errors. */
export async function construct(spec: ClassSpec, feature: string): Promise<unknown> {
  const module = await importOptional<Record<string, unknown>>(spec.module, feature);
  const Class = module[spec.className];
  if (typeof Class !== "function") {
    throw new ValidationError(`${feature}: the module "${spec.module}" has no class "${spec.className}".`);
  }
  return new (Class as new (params?: Record<string, unknown>) => unknown)(spec.params ?? {});
}

/**
 * A LangChain `Embeddings` made on first use (`init()`, which the cache calls before serving), then used
 * through LangChainEmbeddingFunction like any other: its vectors checked, its calls bounded by `timeoutMs`.
 */
export class LazyEmbeddingFunction implements EmbeddingFunction {
  #inner?: LangChainEmbeddingFunction;
  #loading?: Promise<LangChainEmbeddingFunction>;

  constructor(
    /** What the config named, for errors and progress lines (e.g. `embedding: openai`). */
    readonly label: string,
    private readonly load: () => Promise<unknown>,
    private readonly options: LangChainEmbeddingOptions = {},
  ) {}

  get dimension(): number {
    return this.#inner?.dimension ?? this.options.dimension ?? 0;
  }

  get maxInputLength(): number | undefined {
    return this.#inner?.maxInputLength;
  }

  async init(): Promise<void> {
    await (await this.#get()).init();
  }

  async embed(data: EmbeddingInput): Promise<Float32Array> {
    return (await this.#get()).embed(data);
  }

  async embedBatch(data: readonly EmbeddingInput[]): Promise<Float32Array[]> {
    return (await this.#get()).embedBatch(data);
  }

  #get(): Promise<LangChainEmbeddingFunction> {
    this.#loading ??= this.load().then((instance) => {
      if (!isLangChainEmbeddings(instance)) throw new ValidationError(`${this.label}: the class made is not a LangChain Embeddings (embedQuery, embedDocuments).`);
      this.#inner = new LangChainEmbeddingFunction(instance as EmbeddingsLike, this.options);
      return this.#inner;
    });
    // A failed load (a missing package, a bad option) is tried again by the next call.
    this.#loading.catch(() => (this.#loading = undefined));
    return this.#loading;
  }
}

/** A LazyEmbeddingFunction whose class is named `className`, so startup lines name the model class (OpenAIEmbeddings). */
export function lazyEmbeddings(className: string, label: string, load: () => Promise<unknown>, options?: LangChainEmbeddingOptions): LazyEmbeddingFunction {
  const Named = { [className]: class extends LazyEmbeddingFunction {} }[className];
  return new Named(label, load, options);
}

/** A chat model made on first use, as the Runnable the LLM judge asks. */
export function lazyChatModel(spec: ClassSpec, feature: string): JudgeModel {
  let model: Promise<JudgeModel> | undefined;
  const get = (): Promise<JudgeModel> => {
    model ??= construct(spec, feature).then((instance) => {
      if (typeof (instance as { invoke?: unknown }).invoke !== "function") {
        throw new ValidationError(`${feature}: "${spec.className}" is not a LangChain chat model (it has no invoke).`);
      }
      return instance as JudgeModel;
    });
    model.catch(() => (model = undefined));
    return model;
  };
  return RunnableLambda.from(async (input: BaseLanguageModelInput, config): Promise<BaseMessage | string> => (await get()).invoke(input, config));
}
