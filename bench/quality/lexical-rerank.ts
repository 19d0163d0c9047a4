/**
 * Experiment (docs/benchmarks.md, Quality, "Tried"): does a lexical term rerank the offline USE model's top 5?
 * Score = cosine + lambda x TF-IDF cosine of content words, IDF taken from the stored texts (as a cache would,
 * from its own questions). Lambda is picked on the QQP tune split (pools of 5,000 pairs, as scripts/fit-guard.ts
 * builds them); paraphrase-999 is then measured once with that lambda. Reads the embedding cache that
 * `npx tsx bench/quality/embed.ts --tune 60000` fills.
 *
 *   npx tsx bench/quality/lexical-rerank.ts          # ~6 minutes
 */
import { isRight, loadParaphrases, loadQqp, qqpSplits } from "./data.js";
import { EmbeddingCache } from "./embedding-cache.js";
import { topK } from "./neighbours.js";
import { questionFacts } from "../../src/similarity/guard-text.js";

const LAMBDAS = [0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1];
const POOL = 5000;

interface Candidate {
  cosine: number;
  lexical: number;
  right: boolean;
}

type TermVector = Map<string, number>;

/** Unit-length TF-IDF vectors of content words, with document frequencies from `stored`. */
function tfIdf(stored: readonly string[]): (text: string) => TermVector {
  const documentFrequency = new Map<string, number>();
  for (const text of stored) for (const word of questionFacts(text).content) documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  const idf = (word: string) => Math.log((stored.length + 1) / ((documentFrequency.get(word) ?? 0) + 1)) + 1;
  return (text) => {
    const weights = new Map([...questionFacts(text).content].map((word) => [word, idf(word)]));
    const norm = Math.hypot(...weights.values()) || 1;
    for (const [word, weight] of weights) weights.set(word, weight / norm);
    return weights;
  };
}

function dot(a: TermVector, b: TermVector): number {
  let sum = 0;
  for (const [word, weight] of a) sum += weight * (b.get(word) ?? 0);
  return sum;
}

/** Each query's 5 nearest stored texts by cosine, with their lexical score and whether each is right. */
function candidates(vectors: EmbeddingCache, stored: string[], queries: string[], right: (query: number, row: number) => boolean): Candidate[][] {
  const vectorOf = tfIdf(stored);
  const storedTerms = new Map<number, TermVector>();
  const neighbours = topK(stored.map((t) => vectors.require(t)), queries.map((t) => vectors.require(t)), 5);
  return neighbours.map((list, query) => {
    const queryTerms = vectorOf(queries[query]);
    return list.map(({ row, cosine }) => {
      const terms = storedTerms.get(row) ?? vectorOf(stored[row]);
      storedTerms.set(row, terms);
      return { cosine, lexical: dot(queryTerms, terms), right: right(query, row) };
    });
  });
}

/** Queries whose best candidate under cosine + lambda x lexical is right. */
function rightFirst(groups: readonly Candidate[][], lambda: number): number {
  const score = (c: Candidate) => c.cosine + lambda * c.lexical;
  return groups.filter((group) => group.reduce((best, c) => (score(c) > score(best) ? c : best)).right).length;
}

const vectors = new EmbeddingCache("use", 512);
const { tune } = qqpSplits(loadQqp());
const tuneGroups: Candidate[][] = [];
for (let start = 0; start < tune.length; start += POOL) {
  const pool = tune.slice(start, start + POOL);
  tuneGroups.push(...candidates(vectors, pool.map((p) => p.text_a), pool.map((p) => p.text_b), (q, row) => isRight(pool[q], pool[row].text_a)));
}
const answerable = tuneGroups.filter((group) => group.some((c) => c.right));
console.log(`QQP tune: ${answerable.length} queries have their right answer among the 5 nearest`);
const counts = LAMBDAS.map((lambda) => ({ lambda, right: rightFirst(answerable, lambda) }));
for (const { lambda, right } of counts) console.log(`  lambda ${lambda}: right first for ${right}`);
const picked = counts.reduce((best, c) => (c.right > best.right ? c : best)).lambda;

const paraphrases = loadParaphrases();
const groups = candidates(
  vectors,
  paraphrases.map((p) => p.origin),
  paraphrases.map((p) => p.similar),
  (q, row) => paraphrases[row].origin === paraphrases[q].origin,
);
console.log(`paraphrase-999 (right origin among the 5 nearest for ${groups.filter((g) => g.some((c) => c.right)).length}):`);
console.log(`  cosine alone: right first for ${rightFirst(groups, 0)}; with lambda ${picked} (picked on tune): ${rightFirst(groups, picked)}`);
