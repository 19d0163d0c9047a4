/**
 * The error budget's figures (`cache.report.toJSON().errorBudget`, ErrorBudgetStats) as a response schema: a
 * schema lists what is serialised, so /stats and /dashboard/data name every field.
 */
const count = { type: "integer" } as const;
const rate = { type: "number" } as const;

export const errorBudgetSchema = {
  type: "object",
  description: "Present when the cache's judge is an ErrorBudgetEvaluation (docs/error-budget.md).",
  properties: {
    maxErrorRate: rate,
    estimate: {
      type: "object",
      description: "The false-hit rate of served hits, from the audited sample, with its Wilson interval.",
      properties: { rate, lower: rate, upper: rate, samples: count, wrong: count, confidence: rate },
    },
    withinBudget: { type: "boolean" },
    decisions: count,
    served: count,
    explored: count,
    audited: count,
    sampleShare: rate,
    observations: count,
    pendingComparisons: count,
    failedComparisons: count,
    pooledThreshold: rate,
    entries: count,
    thresholds: {
      type: "array",
      items: { type: "object", properties: { entry: { type: "string" }, threshold: rate, observations: count } },
    },
  },
} as const;
