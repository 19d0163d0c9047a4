import { EvaluationError, ValidationError } from "../core/errors.js";
import { isPositiveNumber } from "../core/validation.js";
import { BaseSimilarityEvaluation } from "./base.js";
import { TokenBucket } from "./rate-limiter.js";
import type { EvaluationCandidate, EvaluationSource } from "../core/contracts/evaluation.js";

/** Cohere's API, where the base URL is not given. */
export const COHERE_BASE_URL = "https://api.cohere.com";

export interface RerankEvaluationOptions {
  /** Sent as `Authorization: Bearer`. Default: the COHERE_API_KEY environment variable, if set. */
  apiKey?: string;
  /** The API's root (Cohere, or any server speaking its rerank format). Default COHERE_BASE_URL. */
  baseUrl?: string;
  /** The rerank model, e.g. "rerank-v3.5". */
  model: string;
  /** "v2" (default) posts to /v2/rerank, "v1" to /v1/rerank; the bodies are the same. */
  apiVersion?: "v1" | "v2";
  /** Waits for a token before each call. Default: 100 calls a minute, Cohere's free tier. Pass null for none. */
  limiter?: TokenBucket | null;
  /** Milliseconds a call may take before it fails. Default 10 000. */
  timeoutMs?: number;
}

/**
 * GPTCache's CohereRerank evaluation over any Cohere-compatible rerank API: how relevant the CACHED ANSWER is
 * to the request's question (Cohere's relevance_score, on [0, 1]). It judges whether the stored answer
 * answers the new question, not whether the questions match. An empty question or answer scores 0 without a
 * call. Failures and timeouts throw EvaluationError with the API's message (the cache counts it and fails open).
 */
export class RerankEvaluation extends BaseSimilarityEvaluation {
  readonly model: string;
  readonly baseUrl: string;
  readonly apiVersion: "v1" | "v2";
  readonly timeoutMs: number;
  readonly #apiKey?: string;
  readonly #limiter: TokenBucket | null;

  constructor(options: RerankEvaluationOptions) {
    const { apiKey, baseUrl = COHERE_BASE_URL, model, apiVersion = "v2", limiter, timeoutMs = 10_000 } = options ?? ({} as RerankEvaluationOptions);
    super({ baseUrl, model, apiVersion, timeoutMs });
    if (typeof model !== "string" || model === "") throw new ValidationError("RerankEvaluation: `model` is required.");
    if (apiVersion !== "v1" && apiVersion !== "v2") throw new ValidationError('RerankEvaluation: `apiVersion` must be "v1" or "v2".');
    if (!isPositiveNumber(timeoutMs)) throw new ValidationError("RerankEvaluation: `timeoutMs` must be a positive number.");
    try {
      new URL(baseUrl);
    } catch (error) {
      throw new ValidationError(`RerankEvaluation: \`baseUrl\` is not a URL: ${JSON.stringify(baseUrl)}.`, { cause: error });
    }
    this.model = model;
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.apiVersion = apiVersion;
    this.timeoutMs = timeoutMs;
    this.#apiKey = apiKey ?? process.env.COHERE_API_KEY;
    this.#limiter = limiter === undefined ? new TokenBucket({ limit: 100 }) : limiter;
  }

  range(): readonly [number, number] {
    return [0, 1];
  }

  async evaluation(src: EvaluationSource, cached: EvaluationCandidate): Promise<number> {
    if (src.question === "" || !cached.answer) return 0;
    const [score] = await this.rerank(src.question, [cached.answer]);
    return score;
  }

  /** Relevance scores of documents to a query, in the documents' order. */
  async rerank(query: string, documents: readonly string[]): Promise<number[]> {
    await this.#limiter?.take();
    const url = `${this.baseUrl}/${this.apiVersion}/rerank`;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    let response: Response;
    let body: { results?: Array<{ index?: unknown; relevance_score?: unknown }>; message?: unknown };
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: this.model, query, documents, top_n: documents.length }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new EvaluationError(`RerankEvaluation: ${url} failed: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) {
      const message = typeof body?.message === "string" ? body.message : JSON.stringify(body);
      throw new EvaluationError(`RerankEvaluation: ${url} answered ${response.status}: ${message}`);
    }
    const scores = new Array<number>(documents.length).fill(Number.NaN);
    for (const result of Array.isArray(body?.results) ? body.results : []) {
      if (typeof result.index === "number" && typeof result.relevance_score === "number") scores[result.index] = result.relevance_score;
    }
    if (scores.some((score) => !(score >= 0 && score <= 1))) {
      throw new EvaluationError(`RerankEvaluation: ${url} did not give a relevance score in [0, 1] for every document.`);
    }
    return scores;
  }
}
