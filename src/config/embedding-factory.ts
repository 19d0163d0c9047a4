/** The embedding a checked `embedding` / `embedding_config` describes, built. */
import { OnnxEmbeddings, type OnnxPooling } from "../embeddings/onnx.js";
import type { EmbeddingSource } from "../core/embedding-source.js";
import { StringEmbedding } from "../embeddings/string.js";
import { TimmImageEmbeddings } from "../embeddings/timm.js";
import { TransformersImageEmbeddings } from "../embeddings/transformers-image.js";
import { TransformersEmbeddings, type TransformersPooling } from "../embeddings/transformers.js";
import { UniversalSentenceEncoderEmbeddings } from "../embeddings/use.js";
import { WinkEmbeddings } from "../embeddings/wink.js";
import type { EmbeddingChoice, EmbeddingSettings } from "./embedding-choice.js";
import { construct, lazyEmbeddings } from "./langchain-class.js";
import { defined } from "./read-context.js";

/** The embedding a checked choice describes (hosted and LangChain ones load their package on first use). */
export function createEmbedding({ kind, settings: s }: EmbeddingChoice): EmbeddingSource {
  const adapter = defined({ batchSize: s.batchSize, timeoutMs: s.timeoutMs, embedAs: s.embedAs, dimension: s.dimension ?? s.dimensions });
  switch (kind) {
    case "string":
      return new StringEmbedding();
    case "wink":
      return new WinkEmbeddings();
    case "use":
      return new UniversalSentenceEncoderEmbeddings(defined({ batchSize: s.batchSize, worker: s.worker ?? true, workers: s.workers }));
    case "onnx":
      return new OnnxEmbeddings(
        defined({ modelPath: s.modelPath as string, tokenizerPath: s.tokenizerPath as string, maxLength: s.maxLength, batchSize: s.batchSize, pooling: s.pooling as OnnxPooling | undefined }),
      );
    case "transformers":
      return new TransformersEmbeddings(defined({ ...transformersOptions(s), pooling: s.pooling as TransformersPooling | undefined }));
    case "image":
      return new TransformersImageEmbeddings(defined(transformersOptions(s)));
    case "timm":
      return new TimmImageEmbeddings(defined({ modelPath: s.modelPath as string, configPath: s.configPath, normalize: s.normalize, batchSize: s.batchSize }));
    case "openai": {
      const params = defined({ model: s.model, apiKey: s.apiKey, dimensions: s.dimensions, configuration: s.baseUrl ? { baseURL: s.baseUrl } : undefined });
      return lazyEmbeddings("OpenAIEmbeddings", "embedding: openai", () => construct({ module: "@langchain/openai", className: "OpenAIEmbeddings", params }, "embedding: openai"), adapter);
    }
    case "cohere":
      return lazyEmbeddings("CohereEmbeddings", "embedding: cohere", () => cohereEmbeddings(s), adapter);
    case "langchain": {
      const spec = { module: s.module as string, className: s.className as string, params: s.params };
      return lazyEmbeddings(spec.className, `embedding: langchain (${spec.className})`, () => construct(spec, "embedding: langchain"), adapter);
    }
  }
}

function transformersOptions(s: EmbeddingSettings) {
  return { model: s.model as string, localModelPath: s.localModelPath, allowRemoteModels: s.allowRemoteModels, dtype: s.dtype, normalize: s.normalize, batchSize: s.batchSize };
}

/** CohereEmbeddings has no base URL option: a cohere-ai client aimed at it is handed over instead. */
async function cohereEmbeddings(s: EmbeddingSettings): Promise<unknown> {
  const params: Record<string, unknown> = defined({ model: s.model, apiKey: s.apiKey });
  if (s.baseUrl !== undefined) {
    params.client = await construct({ module: "cohere-ai", className: "CohereClient", params: { token: s.apiKey, environment: s.baseUrl } }, "embedding: cohere");
  }
  return construct({ module: "@langchain/cohere", className: "CohereEmbeddings", params }, "embedding: cohere");
}
