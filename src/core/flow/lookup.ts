/**
 * The lookup: the exact key first (no embedding needed), then the vector search; each admissible candidate is
 * judged, the post function picks among those over the threshold, and a hit is recorded.
 */
import type { EmbeddingOutput } from "../contracts/embedding.js";
import type { EvaluationCandidate, LookupObserver } from "../contracts/evaluation.js";
import type { CacheRecord } from "../types.js";
import { fault, timed } from "./faults.js";
import { embeddingOf, type Prepared } from "./request.js";
import type { CacheHit, SurfaceBase } from "./surface.js";

type Scored = Array<{ score: number; record: CacheRecord }>;
type Candidate = EvaluationCandidate & { record: CacheRecord };

/** The lookup, unless the request skips it (cacheSkip, temperature, no key); reports a skip or a miss. */
export async function lookupOrSkip(prepared: Prepared, surface: SurfaceBase): Promise<CacheHit | null> {
  if (prepared.skip || !prepared.key) {
    surface.onOutcome?.({ status: "SKIP" });
    return null;
  }
  const hit = await lookup(prepared, surface);
  if (!hit && surface.onOutcome) surface.onOutcome({ status: "MISS", score: await nearestScore(prepared, surface) });
  return hit;
}

/**
 * The best score a candidate of this lookup got, as if each had been judged in full: those their bound ruled out
 * are judged now, best bound first, while one could still beat it (usually one, sometimes none).
 */
async function nearestScore(prepared: Prepared, surface: SurfaceBase): Promise<number | undefined> {
  let nearest = prepared.nearestScore;
  const ruledOut = (prepared.ruledOut ?? []).sort((a, b) => b.bound - a.bound);
  try {
    for (const { bound, judgeInFull } of ruledOut) {
      if (nearest !== undefined && bound <= nearest) break;
      const score = await judgeInFull();
      if (nearest === undefined || score > nearest) nearest = score;
    }
  } catch (error) {
    fault(prepared.cache, surface, error);
  }
  return nearest;
}

/** A hit the surface answered with: recorded, and reported to the surface. */
export function answeredFromCache(prepared: Prepared, surface: SurfaceBase, hit: CacheHit): void {
  recordHit(prepared, hit);
  const ageSeconds = Math.max(0, (prepared.cache.dataManager.clock.now() - hit.record.createdAtMs) / 1000);
  surface.onOutcome?.({ status: "HIT", score: hit.score, id: hit.id, ageSeconds });
}

/** Exact key first (no embedding needed), then the vector search. Faults fail open (null) unless strict. */
async function lookup(prepared: Prepared, surface: SurfaceBase): Promise<CacheHit | null> {
  const { cache, key } = prepared;
  if (!key) return null;
  try {
    const scored: Scored = [];
    const exact = await timed(cache, "data", () => cache.dataManager.findExact(key.hash));
    const admitted = exact !== null && admissible(prepared, exact);
    // Awaited only when a session decides: an exact hit's path stays free of an extra microtask.
    if (exact && (admitted === true || (admitted !== false && (await admitted)))) {
      await judge(prepared, toCandidate(exact, 0), exact.embedding ?? key.text, scored, [], { bounded: false });
    }
    if (scored.length === 0) await searchAndJudge(prepared, exact?.id, scored);
    const hit = pick(prepared, scored);
    if (hit) return hit;
  } catch (error) {
    fault(cache, surface, error);
  }
  cache.count("miss");
  return null;
}

async function searchAndJudge(prepared: Prepared, alreadyJudged: number | undefined, scored: Scored): Promise<void> {
  const { cache, stages } = prepared;
  const search = stages.search;
  if (!search) return;
  const embedding = await embeddingOf(prepared);
  if (typeof embedding === "string") return;
  const topK = prepared.options.topK ?? cache.config.topK;
  const hits = await timed(cache, "search", () => search(embedding, topK));
  const candidates = hits.filter((hit) => hit.id !== alreadyJudged);
  const records = await timed(cache, "data", () => Promise.all(candidates.map((hit) => stages.fetch(hit.id))));
  const visible = await Promise.all(records.map((record) => (record ? admissible(prepared, record) : false)));
  const judged = records.flatMap((record, i) =>
    record && visible[i] ? [toCandidate(record, stages.distance(embedding, candidates[i], record))] : [],
  );
  await Promise.all(
    judged.map((candidate) => judge(prepared, candidate, embedding, scored, judged.filter((other) => other !== candidate), { bounded: true })),
  );
}

/** Whether this request may be answered from the record at all: its partition, age and (asynchronously) session. */
function admissible(prepared: Prepared, record: CacheRecord): boolean | Promise<boolean> {
  if (record.partition !== prepared.partition) return false;
  const maxAgeSeconds = prepared.options.maxAgeSeconds;
  if (maxAgeSeconds !== undefined && prepared.cache.dataManager.clock.now() - record.createdAtMs > maxAgeSeconds * 1000) return false;
  const { session } = prepared;
  if (!session) return true;
  return prepared.cache.dataManager
    .sessionsOf(record.id)
    .then((sessions) => session.checkHit(session.name, sessions, record.question, record.answer));
}

function toCandidate(record: CacheRecord, distance: number): Candidate {
  return { question: record.question, answer: record.answer, embedding: record.embedding, distance, createdAtMs: record.createdAtMs, record };
}

/**
 * Scores one admissible candidate (against the others this lookup judges) and keeps it when it passes the threshold.
 * `bounded`: a search's candidate, first given the evaluation's cheap bound where it has one; under the threshold the
 * full judgement could not pass either, and is left for a miss's report (nearestScore). Not the exact key's record,
 * whose bound would be the top of the range.
 */
async function judge(
  prepared: Prepared,
  candidate: Candidate,
  queryEmbedding: EmbeddingOutput,
  scored: Scored,
  neighbours: readonly EvaluationCandidate[],
  { bounded }: { bounded: boolean },
): Promise<void> {
  const { cache, key, stages } = prepared;
  if (!key) return;
  const source = { question: key.question, embedding: queryEmbedding };
  const judgement = { neighbours, lookup: observerOf(prepared) };
  const judgeInFull = () => timed(cache, "evaluation", () => stages.evaluate(source, candidate, judgement));
  const bound = bounded && stages.bound ? await timed(cache, "evaluation", () => stages.bound!(source, candidate, judgement)) : undefined;
  if (bound !== undefined && bound < cache.config.similarityThreshold) {
    (prepared.ruledOut ??= []).push({ bound, judgeInFull });
    return;
  }
  const score = await judgeInFull();
  if (prepared.nearestScore === undefined || score > prepared.nearestScore) prepared.nearestScore = score;
  if (score >= cache.config.similarityThreshold) scored.push({ score, record: candidate.record });
}

function pick(prepared: Prepared, scored: Scored): CacheHit | null {
  if (scored.length === 0) return null;
  const cache = prepared.cache;
  const started = performance.now();
  scored.sort((a, b) => b.score - a.score);
  const picked = cache.postProcessMessagesFunc(scored, { temperature: prepared.temperature, random: cache.config.random });
  cache.timeStage("post", performance.now() - started);
  const list = Array.isArray(picked) ? (picked as Scored) : picked ? [picked as Scored[number]] : [];
  if (list.length === 0) return null;
  const { score, record } = list[0];
  return {
    answer: record.answer,
    answerType: record.answerType,
    score,
    id: record.id,
    question: record.question,
    record,
    cache,
    candidates: Array.isArray(picked) ? list : scored,
  };
}

/** Bookkeeping of a hit: counters, the buffered last-access update, a report row, the session link. */
function recordHit(prepared: Prepared, hit: CacheHit): void {
  const { cache, session, key } = prepared;
  const now = cache.dataManager.clock.now();
  cache.countHit(hit.answer);
  cache.dataManager.hit(hit.id, now);
  cache.dataManager.report({
    userQuestion: key?.question ?? "",
    cacheQuestionId: hit.id,
    cacheQuestion: hit.question,
    cacheAnswer: hit.answer,
    similarity: hit.score,
    lookupMs: performance.now() - prepared.started,
    hitAtMs: now,
  });
  if (session) void cache.dataManager.addSession(hit.id, session.name).catch(() => cache.count("error"));
}

/** The request's LookupObserver, when a miss will call the model and store its answer. */
function observerOf(prepared: Prepared): LookupObserver | undefined {
  const { options } = prepared;
  if (options.searchOnly || options.noStore) return undefined;
  prepared.observer ??= { onModelAnswer: (listener) => (prepared.answerListeners ??= []).push(listener) };
  return prepared.observer;
}
