import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseLLM, type BaseLLMCallOptions, type BaseLLMParams } from "@langchain/core/language_models/llms";
import { GenerationChunk, type Generation, type LLMResult } from "@langchain/core/outputs";
import { runCachedStream } from "../core/pipeline.js";
import type { CacheRequest } from "../core/types.js";
import { CACHE_CALL_KEYS, modelCallConfig, modelSettings, runWithOutcome, splitCallOptions, wrappedInvocationParams } from "./call-options.js";
import type { CacheCallOptions, WrapperCacheDefaults } from "./call-options.js";
import { hitMarker, replayHit, reportTokens, SEARCH_ONLY_MISS_MARKER, SHARED_MARKER, type SemcacheMarker } from "./messages.js";
import { wrapperFields } from "./wrapper-fields.js";

/** Concurrent identical misses share one model call only within one surface. */
const SURFACE = "langchain-llm";

/**
 * Call options of a `CachedLLM`: the wrapped LLM's own (`M`) plus the cache's, which are removed before the
 * wrapped LLM is called (see CachedChatModelCallOptions).
 */
export type CachedLLMCallOptions<M extends BaseLLMCallOptions = BaseLLMCallOptions> = M & CacheCallOptions;

export interface CachedLLMFields<M extends BaseLLMCallOptions = BaseLLMCallOptions>
  extends Omit<BaseLLMParams, "cache">,
    WrapperCacheDefaults {
  /** The text-completion LLM to put the cache in front of (`OpenAI` from @langchain/openai, ...). */
  model: BaseLLM<M>;
}

function isLLM(model: unknown): model is BaseLLM {
  const m = model as { _modelType?: () => string; generate?: unknown } | null;
  return typeof m?._modelType === "function" && m._modelType() === "base_llm" && typeof m.generate === "function";
}

/** A generation that cost no model call, with its marker in generationInfo. */
function markedGeneration(text: string, marker: SemcacheMarker, generationInfo?: Record<string, unknown>): Generation {
  return { text, generationInfo: { ...generationInfo, semcache: marker } };
}

function markedChunk(text: string, marker?: SemcacheMarker): GenerationChunk {
  return new GenerationChunk(marker ? markedGeneration(text, marker) : { text });
}

async function* generationChunks(source: AsyncIterable<string>): AsyncGenerator<GenerationChunk> {
  for await (const text of source) yield new GenerationChunk({ text });
}

/** Token usage summed over the calls' llmOutput (hits and shared answers add nothing). */
function totalUsage(results: ReadonlyArray<LLMResult | undefined>): Record<string, number> {
  const total: Record<string, number> = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const result of results) {
    for (const [name, count] of Object.entries(result?.llmOutput?.tokenUsage ?? {})) {
      if (typeof count === "number") total[name] = (total[name] ?? 0) + count;
    }
  }
  return total;
}

/**
 * Puts the cache in front of any LangChain text LLM: `invoke`, `batch`, `generate` and `stream` go through
 * the request flow with `{ prompt, model, temperature, ... }`. Behaves as CachedChatModel does (options,
 * sessions, callbacks, streams, abort); the marker is in each generation's `generationInfo.semcache`
 * (`invoke` returns only the text), and usage is in `llmOutput.tokenUsage` (zero for hits). A `searchOnly`
 * miss returns "".
 */
export class CachedLLM<M extends BaseLLMCallOptions = BaseLLMCallOptions> extends BaseLLM<CachedLLMCallOptions<M>> {
  readonly model: BaseLLM<M>;
  private readonly defaults: WrapperCacheDefaults;

  static override lc_name(): string {
    return "CachedLLM";
  }

  constructor(fields: CachedLLMFields<M>) {
    const { model, defaults, params } = wrapperFields("CachedLLM", fields, isLLM, "a LangChain text LLM (BaseLLM)");
    super(params);
    this.model = model;
    this.defaults = defaults;
  }

  _llmType(): string {
    return "semcache";
  }

  /** The wrapped LLM's invocation params (what traces show). */
  override invocationParams(options?: this["ParsedCallOptions"]): unknown {
    return wrappedInvocationParams(this.model, options);
  }

  override get callKeys(): string[] {
    return [...super.callKeys, ...CACHE_CALL_KEYS];
  }

  async _generate(prompts: string[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<LLMResult> {
    options.signal?.throwIfAborted();
    const { cacheOptions, modelOptions } = splitCallOptions(options, this.defaults);
    const settings = modelSettings(this.model, modelOptions);
    const config = modelCallConfig<M>(modelOptions, runManager, { relayTokens: true });
    // Each prompt: its generations, and the model result it paid for (own misses only: usage counts once).
    const answers = await Promise.all(
      prompts.map(async (prompt, index): Promise<{ generations: Generation[]; paid?: LLMResult }> => {
        const { value, outcome } = await runWithOutcome<LLMResult>({ ...settings, prompt }, cacheOptions, {
          name: SURFACE,
          call: () => this.model.generate([prompt], config),
          answerOf: (result) => result.generations[0]?.[0]?.text,
          fromCache: (hit) => ({ generations: [[markedGeneration(hit.answer, hitMarker(hit))]] }),
        });
        if (value === null) return { generations: [markedGeneration("", SEARCH_ONLY_MISS_MARKER)] };
        const [first] = value.generations[0];
        // As LangChain's own cache does: a hit reports its text as one token.
        if (outcome === "hit") await runManager?.handleLLMNewToken(first.text, { prompt: index, completion: 0 });
        if (outcome === "shared") return { generations: [markedGeneration(first.text, SHARED_MARKER, first.generationInfo)] };
        return { generations: value.generations[0], paid: outcome === "miss" ? value : undefined };
      }),
    );
    return {
      generations: answers.map((answer) => answer.generations),
      llmOutput: { tokenUsage: totalUsage(answers.map((answer) => answer.paid)) },
    };
  }

  override async *_streamResponseChunks(
    prompt: string,
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<GenerationChunk> {
    options.signal?.throwIfAborted();
    const { cacheOptions, modelOptions } = splitCallOptions(options, this.defaults);
    const request: CacheRequest = { ...modelSettings(this.model, modelOptions), prompt };
    const config = modelCallConfig<M>(modelOptions, runManager);
    const stream = await runCachedStream<GenerationChunk>(request, cacheOptions, {
      name: SURFACE,
      call: async () => generationChunks(await this.model.stream(prompt, config)),
      chunkText: (chunk) => chunk.text,
      replay: (hit) => replayHit(hit, (text, first) => markedChunk(text, first ? hitMarker(hit) : undefined), options.signal),
    });
    yield* reportTokens(stream ?? [markedChunk("", SEARCH_ONLY_MISS_MARKER)], runManager);
  }
}
