import { ValidationError } from "../../core/errors.js";
import type { CacheRequest } from "../../core/types.js";
import { toEmbeddingFunction, type EmbeddingSource } from "../../core/embedding-source.js";
import { EmbeddingCache } from "../../core/embedding-cache.js";
import { integerAtLeast } from "../../core/validation.js";
import { embeddingSimilarity } from "../../core/similarity-score.js";
import type { PreEmbeddingContext } from "../../core/contracts/processors.js";
import { concatAllQueries } from "./concat.js";
import { formatTurns, readDialogue } from "./dialogue.js";

export interface SelectiveContextOptions {
  /** Embeds the turns: an EmbeddingFunction, any LangChain `Embeddings` or a plain function. */
  embedding: EmbeddingSource;
  /** Earlier turns kept besides the question: the ones most similar to it. Default 3. */
  keep?: number;
  /** Conversations up to this many characters are keyed whole, as concatAllQueries keys them. Default: always select. */
  maxLength?: number;
  /** Turn texts whose embeddings are kept between requests (least recently used dropped). Default 1000. */
  cacheSize?: number;
}

/**
 * Keys a long conversation on the turns that matter to its question: the `keep` earlier turns (not in
 * config.skipList) most similar to the last user turn by cosine similarity, in their original order,
 * then the question itself, as "USER: ..." lines. Unlike the last-N window of concatAllQueries, a turn
 * that set up the question long ago survives, and small talk in between does not split two conversations
 * that ask the same thing. Ties go to the later turn. Turn embeddings are remembered, so a growing
 * conversation embeds only its new turns.
 */
export function selectiveContext(options: SelectiveContextOptions): (request: CacheRequest, context: PreEmbeddingContext) => Promise<string> {
  if (options?.embedding === undefined) throw new ValidationError("selectiveContext: `embedding` is required.");
  const keep = integerAtLeast("selectiveContext: `keep`", options.keep, 1, 3);
  const maxLength = options.maxLength === undefined ? undefined : integerAtLeast("selectiveContext: `maxLength`", options.maxLength, 1);
  const cacheSize = integerAtLeast("selectiveContext: `cacheSize`", options.cacheSize, 0, 1000);
  const embeddings = new EmbeddingCache(toEmbeddingFunction(options.embedding), cacheSize);

  return async function selectedContext(request: CacheRequest, context: PreEmbeddingContext): Promise<string> {
    const { history, question } = readDialogue(request, context, "selectiveContext");
    if (maxLength !== undefined && formatTurns([...history, question]).length <= maxLength) return concatAllQueries(request, context);
    if (history.length <= keep) return formatTurns([...history, question]);
    const vectors = await embeddings.embedAll([question.text, ...history.map((turn) => turn.text)]);
    const target = vectors.get(question.text);
    const kept = history
      .map((turn, index) => ({ index, score: embeddingSimilarity(target, vectors.get(turn.text)) ?? 0 }))
      .sort((a, b) => b.score - a.score || b.index - a.index)
      .slice(0, keep)
      .sort((a, b) => a.index - b.index)
      .map(({ index }) => history[index]);
    return formatTurns([...kept, question]);
  };
}
