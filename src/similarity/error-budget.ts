/**
 * The error budget's algorithm (DESIGN section 10), after the idea of vCache ("vCache: Verified Semantic Prompt
 * Caching", Schroeder et al., 2025), reimplemented: each cached entry learns, from the outcomes of the lookups
 * it answered or could have answered, how likely its answer is right at a given similarity,
 * P(right | s) = 1 / (1 + exp(-γ (s - t))); a lookup serves the entry only with the confidence that serving
 * keeps the false-hit rate under the budget δ, and otherwise explores (asks the model, and learns from the
 * comparison). Pure: no cache, no model; the random source and the clock are injected; the statistics are in
 * error-budget-stats.ts.
 *
 * Simplifications of the paper's method: the fit is a Gaussian-prior MAP (a few Newton steps) with its Laplace
 * covariance as the uncertainty; the prior of every entry is the sigmoid pooled over all entries' recent
 * observations (widened by `entrySpread`), so an entry with no history starts from what the cache has learned
 * so far instead of from nothing, and a young cache with no history at all explores nearly always.
 *
 * Kept whole (~280 lines): the ErrorBudget class, its options and the scales it fits on are one algorithm that reads
 * best in one place (the statistics it calls are already apart).
 */
import { ValidationError } from "../core/errors.js";
import { positiveInteger, positiveNumber } from "../core/validation.js";
import { fitSigmoid, invert, normalCdf, wilsonInterval, type Observation, type RateEstimate, type SigmoidFit } from "./error-budget-stats.js";

// The statistics' public names, exported here as before (src/index.ts imports them from this file).
export { fitSigmoid, wilsonInterval, type Observation, type RateEstimate, type SigmoidFit } from "./error-budget-stats.js";

/** What a lookup should do with the entry: serve it, or explore (a miss whose model answer is compared with it). */
export interface BudgetDecision {
  action: "serve" | "explore";
  /** Explored although the fit would serve: the random sample of hits that estimates the false-hit rate. */
  audit: boolean;
  /** The probability of exploring that the fit gave (before the audit share). */
  exploreProbability: number;
  /** The entry's learned threshold: the lowest score it serves at with the budget met (Infinity: none yet). */
  threshold: number;
}

export interface ErrorBudgetOptions {
  /** δ: the false-hit rate (wrong hits / hits) to stay under, in (0, 1). */
  maxErrorRate: number;
  /** Share of would-be hits explored anyway, for an unbiased estimate of the false-hit rate. Default 0.02. */
  auditShare?: number;
  /**
   * How sure the fit must be that serving meets the budget: the lookup explores with probability
   * min(1, P(violation) / (1 - confidence)), so it serves freely only where P(violation) is small. Default 0.5 (chosen on QQP tune pairs: 0.7 and 0.9 kept
   * the false-hit rate further under the budget and served fewer hits).
   */
  confidence?: number;
  /** Level of the false-hit rate's interval. Default 0.95. */
  intervalConfidence?: number;
  /** Entries whose observations are kept (least recently used forgotten). Default 10,000. */
  maxEntries?: number;
  /** Observations kept per entry (oldest dropped). Default 64. */
  maxObservationsPerEntry?: number;
  /** Recent observations of all entries pooled into the shared prior. Default 4,096. */
  maxPooledObservations?: number;
  /**
   * The scale the sigmoid is fitted on. "log-distance" (default): x = -ln(1 - s), which stretches the top of the
   * score range where near-duplicates crowd (0.99, 0.999 and 1 are far apart on it); "linear": x = s, as in the paper.
   */
  scale?: "log-distance" | "linear";
  /** How far one entry's midpoint may sit from the pooled one (a prior standard deviation on the scale). Default 0.5 (linear: 0.05). */
  entrySpread?: number;
  /**
   * The prior before any observation, on the scale: the sigmoid's midpoint and steepness and their standard
   * deviations. Default { t: 3, gamma: 2, tStd: 2, gammaStd: 5 } (midpoint at s = 0.95); linear { t: 0.9, gamma: 30, tStd: 0.2, gammaStd: 20 }.
   */
  prior?: { t?: number; gamma?: number; tStd?: number; gammaStd?: number };
  /** Random source in [0, 1). Default Math.random. */
  random?: () => number;
  /**
   * Clock in epoch milliseconds (entries remember when they last learned) for observations given no time. Default
   * Date.now; in a cache, ErrorBudgetEvaluation gives each observation its lookup's time from the data manager's clock.
   */
  now?: () => number;
}

interface EntryState {
  observations: Observation[];
  updatedAtMs: number;
}

/** The top of the log-distance scale: a score within 1e-4 of 1 counts as 1. */
const LOG_TOP = -Math.log(1e-4);
const SCALES = {
  "log-distance": { to: (s: number) => -Math.log(Math.max(1 - s, 1e-4)), from: (x: number) => (x > LOG_TOP ? Infinity : 1 - Math.exp(-x)) },
  linear: { to: (s: number) => s, from: (x: number) => x },
} as const;
const PRIORS = {
  "log-distance": { t: 3, gamma: 2, tStd: 2, gammaStd: 5, entrySpread: 0.5 },
  linear: { t: 0.9, gamma: 30, tStd: 0.2, gammaStd: 20, entrySpread: 0.05 },
} as const;

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Per-entry learned thresholds under an error budget: `decide` says whether a lookup may serve an entry at a
 * score, `observe` records how a compared lookup turned out, `estimate` is the false-hit rate measured on the
 * audited sample of hits, with its interval.
 */
export class ErrorBudget {
  readonly maxErrorRate: number;
  readonly auditShare: number;
  readonly confidence: number;
  readonly intervalConfidence: number;
  readonly entrySpread: number;
  readonly maxObservationsPerEntry: number;
  readonly maxPooledObservations: number;
  readonly #prior: { t: number; gamma: number; precision: [number, number, number] };
  /** Entries by key, least recently used first (a Map iterates in insertion order). */
  readonly #entries = new Map<string, EntryState>();
  readonly maxEntries: number;
  readonly #pooled: Observation[] = [];
  #pooledNext = 0;
  #pooledFit: SigmoidFit | undefined;
  /** Observations since the pooled fit was made: it is refitted once they are a few percent of the pool. */
  #pooledStale = 0;
  readonly #scale: (typeof SCALES)[keyof typeof SCALES];
  readonly #random: () => number;
  readonly #now: () => number;
  /** logit(1 - δ): serving meets the budget where gamma (s - t) is at least this. */
  readonly #margin: number;
  /**
   * decisions = served + explored + audited (a serve the cache then rejects on its own threshold still counts as
   * served here); observations = compared outcomes recorded; auditsAnswered / auditsWrong = the audited sample.
   */
  readonly counts = { decisions: 0, served: 0, explored: 0, audited: 0, observations: 0, wrong: 0, auditsAnswered: 0, auditsWrong: 0 };

  constructor(options: ErrorBudgetOptions) {
    const owner = "ErrorBudget";
    const o = options ?? ({} as ErrorBudgetOptions);
    const fraction = (name: string, value: unknown, fallback: number, allowZero = false) => {
      const v = value ?? fallback;
      if (typeof v !== "number" || !(allowZero ? v >= 0 : v > 0) || !(v < 1)) {
        throw new ValidationError(`${owner}: \`${name}\` must be a number in ${allowZero ? "[0" : "(0"}, 1).`);
      }
      return v;
    };
    const count = (name: string, value: unknown, fallback: number) => positiveInteger(`${owner}: \`${name}\``, value, fallback);
    this.maxErrorRate = fraction("maxErrorRate", o.maxErrorRate, Number.NaN);
    this.auditShare = fraction("auditShare", o.auditShare, 0.02, true);
    this.confidence = fraction("confidence", o.confidence, 0.5);
    this.intervalConfidence = fraction("intervalConfidence", o.intervalConfidence, 0.95);
    const scale = o.scale ?? "log-distance";
    if (!(scale in SCALES)) throw new ValidationError(`${owner}: \`scale\` must be "log-distance" or "linear".`);
    this.#scale = SCALES[scale];
    const defaults = PRIORS[scale];
    this.entrySpread = positiveNumber(`${owner}: \`entrySpread\``, o.entrySpread, defaults.entrySpread);
    this.maxObservationsPerEntry = count("maxObservationsPerEntry", o.maxObservationsPerEntry, 64);
    this.maxPooledObservations = count("maxPooledObservations", o.maxPooledObservations, 4096);
    this.maxEntries = count("maxEntries", o.maxEntries, 10_000);
    const { t = defaults.t, gamma = defaults.gamma, tStd = defaults.tStd, gammaStd = defaults.gammaStd } = o.prior ?? {};
    for (const [name, value] of Object.entries({ t, gamma, tStd, gammaStd })) {
      if (typeof value !== "number" || !Number.isFinite(value) || (name !== "t" && !(value > 0))) {
        throw new ValidationError(`${owner}: \`prior.${name}\` must be a ${name === "t" ? "finite" : "positive"} number.`);
      }
    }
    this.#prior = { t, gamma, precision: [1 / (tStd * tStd), 0, 1 / (gammaStd * gammaStd)] };
    if (o.random !== undefined && typeof o.random !== "function") throw new ValidationError(`${owner}: \`random\` must be a function.`);
    if (o.now !== undefined && typeof o.now !== "function") throw new ValidationError(`${owner}: \`now\` must be a function.`);
    this.#random = o.random ?? Math.random;
    this.#now = o.now ?? Date.now;
    this.#margin = logit(1 - this.maxErrorRate);
  }

  /** The sigmoid pooled over every entry's recent observations (the prior of an entry with little history). */
  get pooledFit(): SigmoidFit {
    const previous = this.#pooledFit;
    if (!previous || this.#pooledStale > this.#pooled.length / 50) {
      this.#pooledFit = fitSigmoid(this.#pooled, this.#prior, this.#prior.precision, previous);
      this.#pooledStale = 0;
    }
    return this.#pooledFit as SigmoidFit;
  }

  /** An entry's fit: its own observations under the pooled fit as prior, widened by `entrySpread`. */
  fitOf(entry: string): SigmoidFit {
    const pooled = this.pooledFit;
    const [ctt, ctg, cgg] = pooled.covariance;
    const spread = this.entrySpread * this.entrySpread;
    // The steepness may differ by half its pooled value: pooling entries with other midpoints flattens it.
    const precision = invert([ctt + spread, ctg, cgg + (0.5 * pooled.gamma) ** 2]);
    const observations = this.#entries.get(entry)?.observations ?? [];
    return fitSigmoid(observations, pooled, precision);
  }

  /** The lowest score at which a fit says serving meets the budget (its point estimate; Infinity: no score does). */
  thresholdOf(fit: SigmoidFit): number {
    return this.#scale.from(fit.t + this.#margin / fit.gamma);
  }

  /**
   * The probability that serving `entry` at `score` breaks the budget: P(P(right | score) < 1 - δ) under the
   * fit's Laplace posterior, by the delta method on gamma (s - t).
   */
  violationProbability(fit: SigmoidFit, score: number): number {
    const [ctt, ctg, cgg] = fit.covariance;
    const d = this.#scale.to(score) - fit.t;
    const mean = fit.gamma * d;
    const variance = d * d * cgg + fit.gamma * fit.gamma * ctt - 2 * d * fit.gamma * ctg;
    const sd = Math.sqrt(Math.max(variance, 1e-12));
    return normalCdf((this.#margin - mean) / sd);
  }

  /**
   * Decides one lookup of `entry` at normalised `score`. `canExplore` false (the request cannot call the model):
   * serves when the fit is at least as sure as `confidence` asks, never explores, never audits.
   */
  decide(entry: string, score: number, canExplore = true): BudgetDecision {
    const fit = this.fitOf(entry);
    const threshold = this.thresholdOf(fit);
    const violation = this.violationProbability(fit, score);
    const exploreProbability = Math.min(1, violation / (1 - this.confidence));
    this.counts.decisions++;
    if (!canExplore) {
      const serve = exploreProbability < 1 && violation <= 1 - this.confidence;
      if (serve) this.counts.served++;
      return { action: serve ? "serve" : "explore", audit: false, exploreProbability, threshold };
    }
    if (this.#random() < exploreProbability) {
      this.counts.explored++;
      return { action: "explore", audit: false, exploreProbability, threshold };
    }
    if (this.auditShare > 0 && this.#random() < this.auditShare) {
      this.counts.audited++;
      return { action: "explore", audit: true, exploreProbability, threshold };
    }
    this.counts.served++;
    return { action: "serve", audit: false, exploreProbability, threshold };
  }

  /**
   * Records how a compared lookup turned out; `audit` when it was the decision's audit sample; `atMs` when the
   * lookup ran (epoch milliseconds; default the budget's clock).
   */
  observe(entry: string, score: number, right: boolean, audit = false, atMs: number = this.#now()): void {
    const observation = { score: this.#scale.to(score), right };
    const state = this.#entries.get(entry) ?? { observations: [], updatedAtMs: 0 };
    this.#entries.delete(entry);
    state.observations.push(observation);
    if (state.observations.length > this.maxObservationsPerEntry) state.observations.shift();
    state.updatedAtMs = atMs;
    this.#entries.set(entry, state);
    if (this.#entries.size > this.maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    if (this.#pooled.length < this.maxPooledObservations) this.#pooled.push(observation);
    else this.#pooled[this.#pooledNext++ % this.maxPooledObservations] = observation;
    this.#pooledStale++;
    this.counts.observations++;
    if (!right) this.counts.wrong++;
    if (audit) {
      this.counts.auditsAnswered++;
      if (!right) this.counts.auditsWrong++;
    }
  }

  /** The false-hit rate of served hits, measured on the audited sample (answered audits), with its Wilson interval. */
  estimate(): RateEstimate {
    return wilsonInterval(this.counts.auditsWrong, this.counts.auditsAnswered, this.intervalConfidence);
  }

  /** The entries with history: each one's learned threshold and observation count, most recently learned first. */
  thresholds(limit = 20): Array<{ entry: string; threshold: number; observations: number; updatedAtMs: number }> {
    const recent = [...this.#entries].slice(-limit).reverse();
    return recent.map(([entry, state]) => ({
      entry,
      threshold: this.thresholdOf(this.fitOf(entry)),
      observations: state.observations.length,
      updatedAtMs: state.updatedAtMs,
    }));
  }

  /** Entries with history now. */
  get entries(): number {
    return this.#entries.size;
  }
}
