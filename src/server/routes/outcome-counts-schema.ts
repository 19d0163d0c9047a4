/** The outcome counters that /stats and /dashboard/data both report, as response schema properties. */
export const outcomeCountsProperties = {
  requests: { type: "integer" },
  hits: { type: "integer" },
  misses: { type: "integer" },
  skips: { type: "integer" },
} as const;
