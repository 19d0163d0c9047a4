import { progressBar } from "../../src/cli/import.js";

describe("semcache import's progress line", () => {
  it("shows the share done, and no rate before anything is done", () => {
    expect(progressBar(0, 10_000, "pairs", 0)).toBe(`[${".".repeat(30)}] 0/10,000 pairs 0%`);
    expect(progressBar(4_096, 10_000, "pairs")).toBe(`[${"#".repeat(12)}${".".repeat(18)}] 4,096/10,000 pairs 40%`);
  });

  it("adds the rate and the time left at that rate", () => {
    expect(progressBar(4_000, 10_000, "pairs", 2_000)).toBe(`[${"#".repeat(12)}${".".repeat(18)}] 4,000/10,000 pairs 40%  2,000 pairs/s, 0:03 left`);
    expect(progressBar(1_000, 1_000_000, "pairs", 1_000)).toMatch(/1,000 pairs\/s, 16:39 left$/);
    expect(progressBar(1, 10_000, "pairs", 1_000)).toMatch(/1 pairs\/s, 2:46:39 left$/);
    expect(progressBar(10, 10, "pairs", 500)).toMatch(/100% {2}20 pairs\/s, 0:00 left$/);
  });
});
