import { FakeHttpError, hashedEmbedding, startFakeServer, type FakeRequest, type FakeServer } from "./http.js";

export interface FakeHuggingFaceOptions {
  /** Vector length. Default 64. */
  dimension?: number;
  /** The vector for one text; return anything to test malformed responses, undefined for the default (a hashed bag of words). */
  vector?: (text: string, body: Record<string, unknown>) => unknown;
  /**
   * Return an HTTP status to fail the request with Hugging Face's `{ error }` body. Not 503: the client retries
   * a 503 at once, without limit (@huggingface/inference dist/esm/utils/request.js, innerRequest).
   */
  fail?: (body: Record<string, unknown>, path: string) => number | undefined;
}

export interface FakeHuggingFaceServer extends FakeServer {
  /** An `endpointUrl` for a model: its feature-extraction route, as on router.huggingface.co/hf-inference. */
  endpointUrl(model?: string): string;
}

const DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2";

/**
 * A local server speaking Hugging Face's feature-extraction wire format, as `@huggingface/inference` sends it
 * with an `endpointUrl` (so `HuggingFaceInferenceEmbeddings` runs against it with no token): POST JSON
 * `{ inputs: string | string[] }` to `/models/{model}/pipeline/feature-extraction` (or to the root, like a
 * dedicated Inference Endpoint); the answer is one pooled vector per input.
 */
export async function startFakeHuggingFace(options: FakeHuggingFaceOptions = {}): Promise<FakeHuggingFaceServer> {
  const dimension = options.dimension ?? 64;
  const vector = (text: string, body: Record<string, unknown>) => options.vector?.(text, body) ?? hashedEmbedding(text, dimension);

  function featureExtraction(request: FakeRequest) {
    const body = request.json;
    if (!body) throw new FakeHttpError(400, { error: "The request body must be JSON." });
    const status = options.fail?.(body, request.path);
    if (status !== undefined) throw new FakeHttpError(status, { error: `fake failure ${status}` });
    const { inputs } = body;
    if (typeof inputs === "string") return vector(inputs, body);
    if (!Array.isArray(inputs) || !inputs.every((input) => typeof input === "string")) {
      throw new FakeHttpError(400, { error: "`inputs` must be a string or a list of strings." });
    }
    return inputs.map((input: string) => vector(input, body));
  }

  const server = await startFakeServer({ "POST /models/*": featureExtraction, "POST /": featureExtraction });
  return {
    ...server,
    endpointUrl: (model = DEFAULT_MODEL) => `${server.url}/models/${model}/pipeline/feature-extraction`,
  };
}
