/** Errors sent between threads come back as the same typed errors, through structured cloning as postMessage does. */
import { errorFromReport, reportError } from "../../src/core/error-report.js";
import { DimensionMismatchError, SemcacheError, StoreError, ValidationError } from "../../src/core/errors.js";

const across = (error: unknown) => errorFromReport(structuredClone(reportError(error)));

describe("error reports", () => {
  it("bring a typed error back as its class, with its message, code, fields and cause", () => {
    const back = across(new StoreError("usearch", "cannot read x", { cause: new DimensionMismatchError(512, 384) }));
    expect(back).toBeInstanceOf(StoreError);
    expect(StoreError.isInstance(back)).toBe(true);
    expect(back).toMatchObject({ name: "StoreError", code: "SEMCACHE_STORE", statusCode: 503, store: "usearch", message: "usearch: cannot read x" });
    expect(back.cause).toBeInstanceOf(DimensionMismatchError);
    expect(back.cause).toMatchObject({ expected: 512, actual: 384 });
    expect(across(new ValidationError("bad"))).toBeInstanceOf(SemcacheError);
  });

  it("bring any other error back as an Error with its name and message", () => {
    const back = across(new TypeError("not a function"));
    expect(back).toBeInstanceOf(Error);
    expect(SemcacheError.isInstance(back)).toBe(false);
    expect(back).toMatchObject({ name: "TypeError", message: "not a function" });
    expect(across("a string thrown")).toMatchObject({ name: "Error", message: "a string thrown" });
  });

  it("stop at a few causes: a chain that loops is reported, not followed for ever", () => {
    const error = new Error("loops");
    (error as { cause?: unknown }).cause = error;
    let depth = 0;
    for (let cause: unknown = across(error); cause instanceof Error; cause = cause.cause) depth++;
    expect(depth).toBeLessThanOrEqual(5);
  });
});
