import { FakeHttpError, hashedEmbedding, startFakeServer, type FakeRequest, type FakeServer } from "./http.js";

export interface FakeCohereOptions {
  /** Vector length. Default 64. */
  dimension?: number;
  /**
   * The vector for one text; return anything to test malformed responses, undefined for the default: a hashed bag of words
   * nudged by `input_type`, so (as with Cohere v3) a query and a document embedding of one text are close
   * but not equal.
   */
  vector?: (text: string, body: Record<string, unknown>) => unknown;
  /** Return an HTTP status to fail the request with Cohere's `{ message }` body. */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
}

export interface FakeCohereServer extends FakeServer {
  /** The value for `new CohereClient({ token, environment })` (or `baseUrl`): http://127.0.0.1:PORT */
  readonly environment: string;
}

/** Models that refuse a request without `input_type` (Cohere's v3 and later embedding models). */
const NEEDS_INPUT_TYPE = /-v[3-9]/;

function asymmetricEmbedding(text: string, inputType: unknown, dimension: number): number[] {
  const base = hashedEmbedding(text, dimension);
  if (typeof inputType !== "string") return base;
  const nudge = hashedEmbedding(inputType, dimension);
  const mixed = base.map((x, i) => x + 0.2 * nudge[i]);
  const norm = Math.sqrt(mixed.reduce((sum, x) => sum + x * x, 0)) || 1;
  return mixed.map((x) => x / norm);
}

/**
 * A local server speaking Cohere's v1 embed wire format, as the `cohere-ai` client that `@langchain/cohere`
 * uses sends it: POST /v1/embed with JSON `{ model, texts, input_type, embedding_types }`; the answer is
 * `response_type: "embeddings_by_type"` with `embeddings.float` when embedding types are asked for, else
 * `"embeddings_floats"` with a plain list; errors are `{ message }`.
 */
export async function startFakeCohere(options: FakeCohereOptions = {}): Promise<FakeCohereServer> {
  const dimension = options.dimension ?? 64;
  const vector = (text: string, body: Record<string, unknown>) =>
    options.vector?.(text, body) ?? asymmetricEmbedding(text, body.input_type, dimension);
  let sequence = 0;

  function embed(request: FakeRequest) {
    const body = request.json;
    if (!body) throw new FakeHttpError(400, { message: "invalid request: the body must be JSON." });
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw new FakeHttpError(status, { message: `fake failure ${status}` });
    const { texts, model, input_type: inputType, embedding_types: types } = body;
    if (!Array.isArray(texts) || !texts.every((text) => typeof text === "string")) {
      throw new FakeHttpError(400, { message: "invalid request: texts must be a list of strings." });
    }
    if (typeof model === "string" && NEEDS_INPUT_TYPE.test(model) && inputType === undefined) {
      throw new FakeHttpError(400, { message: "invalid request: valid input_type must be provided with the provided model" });
    }
    if (types !== undefined && !(Array.isArray(types) && types.every((type) => type === "float"))) {
      throw new FakeHttpError(400, { message: "invalid request: this fake serves only the float embedding type." });
    }
    const vectors = texts.map((text: string) => vector(text, body));
    const tokens = texts.reduce((sum: number, text: string) => sum + Math.ceil(text.length / 4), 0);
    const common = {
      id: `fake-embed-${++sequence}`,
      texts,
      meta: { api_version: { version: "1" }, billed_units: { input_tokens: tokens } },
    };
    return types === undefined
      ? { ...common, embeddings: vectors, response_type: "embeddings_floats" }
      : { ...common, embeddings: { float: vectors }, response_type: "embeddings_by_type" };
  }

  const server = await startFakeServer({ "POST /v1/embed": embed });
  return { ...server, environment: server.url };
}
