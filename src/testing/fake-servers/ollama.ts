import { FakeHttpError, hashedEmbedding, startFakeServer, type FakeRequest, type FakeServer } from "./http.js";

export interface FakeOllamaOptions {
  /** Vector length (a request's `dimensions` overrides it, as in Ollama). Default 64. */
  dimension?: number;
  /** The vector for one text; return anything to test malformed responses, undefined for the default (a hashed bag of words). */
  vector?: (text: string, body: Record<string, unknown>) => unknown;
  /** Return an HTTP status to fail the request with Ollama's `{ error }` body. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
}

/**
 * A local server speaking Ollama's embed wire format, as the `ollama` client that `@langchain/ollama` uses
 * sends it (pass the server's `url` as `baseUrl`): POST /api/embed with JSON `{ model, input, truncate,
 * dimensions, keep_alive, options }`; the answer is `{ model, embeddings, total_duration, load_duration,
 * prompt_eval_count }`; errors are `{ error }`.
 */
export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeServer> {
  const dimension = options.dimension ?? 64;

  function embed(request: FakeRequest) {
    const body = request.json;
    if (!body) throw new FakeHttpError(400, { error: "the request body must be JSON" });
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw new FakeHttpError(status, { error: `fake failure ${status}` });
    const { model, input } = body;
    if (typeof model !== "string" || model.length === 0) throw new FakeHttpError(400, { error: "model is required" });
    const inputs = typeof input === "string" ? [input] : input;
    if (!Array.isArray(inputs) || !inputs.every((text) => typeof text === "string")) {
      throw new FakeHttpError(400, { error: "invalid input type" });
    }
    const size = typeof body.dimensions === "number" ? body.dimensions : dimension;
    return {
      model,
      embeddings: inputs.map((text: string) => options.vector?.(text, body) ?? hashedEmbedding(text, size)),
      total_duration: 1_000_000,
      load_duration: 100_000,
      prompt_eval_count: inputs.reduce((sum: number, text: string) => sum + Math.ceil(text.length / 4), 0),
    };
  }

  return startFakeServer({ "POST /api/embed": embed });
}
