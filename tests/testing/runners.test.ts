/**
 * The contract suites take the runner's functions, so a user's own store can be checked in their own test setup:
 * Vitest (globals off) runs them from the built package, in a child process; without a runner and without
 * globals they say what to pass. Node's own `node:test` has no `expect`, so it is not one of them.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import type * as Vitest from "vitest";
import { ValidationError } from "../../src/core/errors.js";
import { StringEmbedding } from "../../src/embeddings/string.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { resolveRunner, testEmbeddingFunction, testScalarStore, type ContractExpect, type TestRunner } from "../../src/testing/index.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = join(ROOT, "tests", "fixtures", "vitest-contract");
const RUNNER_NAMES = ["describe", "it", "expect", "beforeEach", "afterEach"] as const;

// Jest's and Vitest's functions fit TestRunner as they are (checked by tsc, which reads this file).
const jestRunner: TestRunner = { describe, it, expect, beforeEach, afterEach };
type VitestFitsTestRunner = Pick<typeof Vitest, (typeof RUNNER_NAMES)[number]> extends TestRunner ? true : never;
const vitestFits: VitestFitsTestRunner = true;

function newestMtimeMs(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? newestMtimeMs(path) : statSync(path).mtimeMs;
    }),
  );
}

/** dist/ as the sources of the suites are now: built when missing or older than src/testing (CI builds first). */
async function ensureBuilt(): Promise<void> {
  const built = join(ROOT, "dist", "testing", "index.js");
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtimeMs(join(ROOT, "src", "testing"))) return;
  await run("npm", ["run", "build"], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
}

/** The titles the suites register (passed and skipped), read by a runner that runs nothing. */
function registeredTitles(register: (runner: TestRunner) => void): { passed: string[]; skipped: string[] } {
  const passed: string[] = [];
  const skipped: string[] = [];
  const recorder: TestRunner = {
    describe: (_name, body) => body(),
    it: Object.assign((name: string) => void passed.push(name), { skip: (name: string) => void skipped.push(name) }),
    expect: (() => undefined) as unknown as ContractExpect,
    beforeEach: () => undefined,
    afterEach: () => undefined,
  };
  register(recorder);
  return { passed, skipped };
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }>;
}

describe("the contract suites under Vitest", () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "semcache-vitest-"));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("run from the built package with Vitest's own functions (globals: false), every test passing", async () => {
    await ensureBuilt();
    const report = join(out, "report.json");
    const vitest = join(ROOT, "node_modules", "vitest", "vitest.mjs");
    const args = [vitest, "run", "--config", join(FIXTURE, "vitest.config.mjs"), "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
    const child = await run(process.execPath, args, { cwd: FIXTURE, env: { ...process.env, NO_COLOR: "1", CI: "true" }, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? "", stderr: error.stderr ?? String(error) }),
    );
    if (child.code !== 0) throw new Error(`vitest exited with ${child.code}:\n${child.stdout}\n${child.stderr}`);
    const { stdout } = child;

    // What the fixture registers, as these suites register it here (the same titles under both runners).
    const expected = registeredTitles((runner) => {
      testScalarStore({ name: "MemoryScalarStore", persistent: false, create: () => new MemoryScalarStore(), runner });
      testEmbeddingFunction({ name: "StringEmbedding", create: () => new StringEmbedding(), runner });
    });
    expect(expected.passed).toHaveLength(47);
    expect(stdout).toMatch(new RegExp(`Tests\\s+${expected.passed.length} passed \\| ${expected.skipped.length} skipped`));

    const result = JSON.parse(readFileSync(report, "utf8")) as VitestReport;
    expect(result).toMatchObject({ numFailedTests: 0, numPassedTests: expected.passed.length, numPendingTests: expected.skipped.length });
    const titles = (status: string) =>
      result.testResults.flatMap((file) => file.assertionResults.filter((test) => test.status === status).map((test) => test.title));
    expect(titles("passed").sort()).toEqual([...expected.passed].sort());
    expect(titles("skipped")).toEqual(expected.skipped);
  }, 300_000);
});

describe("resolveRunner", () => {
  it("returns the runner it is given, and Jest's globals without one", () => {
    expect(vitestFits).toBe(true);
    expect(resolveRunner(jestRunner)).toBe(jestRunner);
    expect(resolveRunner().it).toBe(it);
  });

  it("refuses a runner missing a function with a ValidationError naming it", () => {
    const { expect: _omitted, ...partial } = jestRunner;
    const attempt = () => resolveRunner(partial as TestRunner);
    expect(attempt).toThrow(ValidationError);
    expect(attempt).toThrow("runner: expect must be functions");
  });

  it("without a runner and without globals, says what to pass (and so does a suite)", () => {
    const globals = globalThis as Record<string, unknown>;
    const saved = RUNNER_NAMES.map((name) => [name, globals[name]] as const);
    for (const name of RUNNER_NAMES) delete globals[name];
    let noRunner: unknown;
    let suite: unknown;
    try {
      resolveRunner();
    } catch (error) {
      noRunner = error;
    }
    try {
      testScalarStore({ name: "unused", persistent: false, create: () => new MemoryScalarStore() });
    } catch (error) {
      suite = error;
    }
    for (const [name, value] of saved) globals[name] = value;
    for (const error of [noRunner, suite]) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain("no global describe, it, expect, beforeEach, afterEach");
      expect((error as Error).message).toContain('Pass { runner: { describe, it, expect, beforeEach, afterEach } }');
    }
  });
});
