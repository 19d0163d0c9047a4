/**
 * The scalar store contract: testScalarStore registers its parts (under ./scalar-store/, one file per kind of
 * behaviour) inside one describe, on one harness.
 */
import { resolveRunner } from "./runner.js";
import { columnLengthTests } from "./scalar-store/column-lengths.js";
import { scalarStoreHarness, type ScalarStoreSuiteOptions, type ScalarSuitePart } from "./scalar-store/harness.js";
import { persistenceTests } from "./scalar-store/persistence.js";
import { recordTests } from "./scalar-store/records.js";
import { removalTests } from "./scalar-store/removal.js";
import { sessionAndReportTests } from "./scalar-store/sessions-reports.js";

export {
  insertEvictionScenario,
  sampleRecord,
  scalarStoreHarness,
  type ScalarStoreFactory,
  type ScalarStoreSuiteOptions,
  type StoreTestContext,
} from "./scalar-store/harness.js";

/** Registers the behaviours every ScalarStore must have. */
export function testScalarStore(options: ScalarStoreSuiteOptions): void {
  const runner = resolveRunner(options.runner);

  runner.describe(`${options.name} (scalar store contract)`, () => {
    const { open } = scalarStoreHarness(options.create, options.cleanup, runner);
    const part: ScalarSuitePart = { runner, open, persistent: options.persistent };
    recordTests(part);
    removalTests(part);
    sessionAndReportTests(part);
    columnLengthTests(part);
    persistenceTests(part);
  });
}
