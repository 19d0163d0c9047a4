import { FakeHttpError, startFakeServer, type FakeRequest, type FakeServer } from "./http.js";

export interface FakeRerankOptions {
  /** The relevance of a document to the query, in [0, 1]. Default: the share of the query's words the document has. */
  score?: (query: string, document: string) => number;
  /** Answer with this HTTP status instead (Cohere's `{ message }` body); undefined serves the request. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
  /** Milliseconds to wait before answering (timeouts). */
  delayMs?: number;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** The share of the query's distinct words that the document contains (1 for a document holding them all). */
export function wordOverlap(query: string, document: string): number {
  const q = words(query);
  if (q.size === 0) return 0;
  const d = words(document);
  return [...q].filter((word) => d.has(word)).length / q.size;
}

/**
 * A local server speaking Cohere's rerank wire format (v1 and v2): POST /v1/rerank or /v2/rerank with JSON
 * `{ model, query, documents, top_n }` (v1 documents may also be `{ text }` objects); the answer lists
 * `results: [{ index, relevance_score }]` best first, cut to top_n; errors are `{ message }`.
 */
export async function startFakeRerank(options: FakeRerankOptions = {}): Promise<FakeServer> {
  const score = options.score ?? wordOverlap;
  let sequence = 0;

  async function rerank(request: FakeRequest) {
    const body = request.json;
    if (!body) throw new FakeHttpError(400, { message: "invalid request: the body must be JSON." });
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw new FakeHttpError(status, { message: `fake failure ${status}` });
    const { query, documents, top_n: topN, model } = body;
    if (typeof model !== "string" || model === "") throw new FakeHttpError(400, { message: "invalid request: model is required." });
    if (typeof query !== "string" || query === "") throw new FakeHttpError(400, { message: "invalid request: query must be a non-empty string." });
    const texts = Array.isArray(documents) ? documents.map((doc) => (typeof doc === "object" && doc !== null ? (doc as { text?: unknown }).text : doc)) : [];
    if (texts.length === 0 || !texts.every((text) => typeof text === "string")) {
      throw new FakeHttpError(400, { message: "invalid request: documents must be a non-empty list of strings." });
    }
    const results = (texts as string[])
      .map((text, index) => ({ index, relevance_score: score(query, text) }))
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, typeof topN === "number" ? topN : undefined);
    const version = request.path.startsWith("/v2") ? "2" : "1";
    return { id: `fake-rerank-${++sequence}`, results, meta: { api_version: { version }, billed_units: { search_units: 1 } } };
  }

  return startFakeServer({ "POST /v1/rerank": rerank, "POST /v2/rerank": rerank });
}
