import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { EmbeddingError } from "../../core/errors.js";

function refuse(): Promise<never> {
  return Promise.reject(
    new EmbeddingError(
      "This LangChain vector store was built by langchain-semcache, which hands it precomputed vectors; " +
        "it has no model to embed text with. Call addVectors/similaritySearchVectorWithScore, or build the " +
        "store yourself with your own Embeddings and pass it in.",
    ),
  );
}

/**
 * The `Embeddings` the cache builds LangChain vector stores with. The cache always passes vectors, so a store
 * asked to embed text is being misused: fail loudly instead of embedding with the wrong model.
 */
export const vectorsOnlyEmbeddings: EmbeddingsInterface = Object.freeze({
  embedDocuments: refuse,
  embedQuery: refuse,
});
