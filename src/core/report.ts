/** Stages of the request flow, in order; `cache.report` times each. */
export const STAGES = ["pre", "embedding", "search", "data", "evaluation", "post", "llm", "save"] as const;
export type Stage = (typeof STAGES)[number];

export interface StageTiming {
  count: number;
  totalMs: number;
}

/**
 * A component with figures of its own in the report (the error budget: its false-hit estimate, sample share and
 * learned thresholds): `toJSON()` adds them under `reportName`.
 */
export interface ReportSection {
  readonly reportName: string;
  reportSection(): unknown;
}

function isReportSection(value: unknown): value is ReportSection {
  const v = value as Partial<ReportSection> | null | undefined;
  return typeof v?.reportName === "string" && typeof v.reportSection === "function";
}

/** Counters and per-stage timings of one cache object (GPTCache's Report, plus hit/miss/error counts). */
export class Report {
  requests = 0;
  hits = 0;
  misses = 0;
  skips = 0;
  /** Cache faults that were absorbed (the model was still called or the answer still returned). */
  errors = 0;
  /** Answers not stored because a value was longer than its column. */
  savesSkipped = 0;
  /** Estimated completion tokens not paid for thanks to hits (answer characters / 4). */
  savedTokens = 0;
  readonly stages: Record<Stage, StageTiming> = Object.fromEntries(
    STAGES.map((stage) => [stage, { count: 0, totalMs: 0 }]),
  ) as Record<Stage, StageTiming>;

  constructor(
    private readonly logTime?: (stage: string, milliseconds: number) => void,
    /** The cache's components now (they may be swapped after init); those with a report section add it. */
    private readonly components: () => readonly unknown[] = () => [],
  ) {}

  time(stage: Stage, milliseconds: number): void {
    const timing = this.stages[stage];
    timing.count++;
    timing.totalMs += milliseconds;
    this.logTime?.(stage, milliseconds);
  }

  /** Average milliseconds of a stage (0 before its first call). */
  average(stage: Stage): number {
    const timing = this.stages[stage];
    return timing.count === 0 ? 0 : timing.totalMs / timing.count;
  }

  /** The components' own sections, by name (`{ errorBudget: ... }` with an ErrorBudgetEvaluation). */
  sections(): Record<string, unknown> {
    const found = this.components().filter(isReportSection);
    return Object.fromEntries(found.map((component) => [component.reportName, component.reportSection()]));
  }

  toJSON() {
    return {
      ...this.sections(),
      requests: this.requests,
      hits: this.hits,
      misses: this.misses,
      skips: this.skips,
      errors: this.errors,
      savesSkipped: this.savesSkipped,
      savedTokens: this.savedTokens,
      stages: Object.fromEntries(
        STAGES.map((stage) => [stage, { ...this.stages[stage], averageMs: this.average(stage) }]),
      ),
    };
  }
}
