import { readFileSync } from "node:fs";
import * as api from "../../src/index.js";
import { ERROR_CODES, SemcacheError, ValidationError, StoreError } from "../../src/index.js";

describe("errors", () => {
  it("docs/errors.md lists every code with its class and status, and nothing else", () => {
    const doc = readFileSync(new URL("../../docs/errors.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| (SEMCACHE_\w+) \| (\w+) \| (\d+) \| (.+) \|$/gm)];
    expect(rows.map((r) => r[1]).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [, code, className, status, description] of rows) {
      const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
      expect(Number(status)).toBe(entry.statusCode);
      expect(description).toBe(entry.description);
      const cls = (api as unknown as Record<string, { code?: string }>)[className];
      expect(cls?.code).toBe(code);
    }
  });

  it("isInstance recognises errors by code, across copies of the package", () => {
    const error = new ValidationError("bad");
    expect(ValidationError.isInstance(error)).toBe(true);
    expect(SemcacheError.isInstance(error)).toBe(true);
    expect(StoreError.isInstance(error)).toBe(false);
    // An error from another copy: same global marker and code, different class identity.
    const foreign = Object.assign(new Error("x"), { [Symbol.for("langchain-semcache.error")]: true, code: "SEMCACHE_VALIDATION" });
    expect(ValidationError.isInstance(foreign)).toBe(true);
    expect(ValidationError.isInstance(new Error("plain"))).toBe(false);
    expect(error.statusCode).toBe(400);
  });
});
