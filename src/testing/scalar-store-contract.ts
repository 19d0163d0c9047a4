/**
 * The scalar store contract: testScalarStore registers its parts (under ./scalar-store/, one file per kind of
 * behaviour) inside one describe, on one harness.
 */
import { resolveRunner } from "./runner.js";
import { columnLengthTests } from "./scalar-store/column-lengths.js";
import {
  ALL_SUITE_CAPABILITIES,
  capabilityGate,
  scalarStoreHarness,
  type ScalarStoreSuiteOptions,
  type ScalarSuitePart,
} from "./scalar-store/harness.js";
import { persistenceTests } from "./scalar-store/persistence.js";
import { recordTests } from "./scalar-store/records.js";
import { removalTests } from "./scalar-store/removal.js";
import { sessionAndReportTests } from "./scalar-store/sessions-reports.js";

export {
  ALL_SUITE_CAPABILITIES,
  insertEvictionScenario,
  sampleRecord,
  scalarStoreHarness,
  type ScalarStoreFactory,
  type ScalarStoreSuiteOptions,
  type StoreTestContext,
  type SuiteCapability,
} from "./scalar-store/harness.js";

/**
 * Registers the behaviours of the scalar store contract: the required record contract's on every store, each
 * optional capability's where `options.capabilities` lists it (default: all, a full ScalarStore).
 */
export function testScalarStore(options: ScalarStoreSuiteOptions): void {
  const runner = resolveRunner(options.runner);
  const tested = options.capabilities ?? ALL_SUITE_CAPABILITIES;

  runner.describe(`${options.name} (scalar store contract)`, () => {
    const { open } = scalarStoreHarness(options.create, options.cleanup, runner);
    const part: ScalarSuitePart = { runner, open, persistent: options.persistent, tested, ...capabilityGate(runner, tested) };
    recordTests(part);
    removalTests(part);
    sessionAndReportTests(part);
    columnLengthTests(part);
    persistenceTests(part);
  });
}
