import { readFileSync } from "node:fs";
import { API_REPORT_PATH, apiReport } from "../../scripts/api-report.js";

describe("the public API report", () => {
  it("docs/api.md lists exactly what each export entry exports (after a deliberate change: npx tsx scripts/api-report.ts)", () => {
    expect(readFileSync(API_REPORT_PATH, "utf8")).toBe(apiReport());
  }, 60_000);
});
