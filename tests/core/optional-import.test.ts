import { cpSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { MissingDependencyError } from "../../src/core/errors.js";
import { installedVersionOf } from "../../src/core/installed-version.js";
import { importOptional, nativeLoadError } from "../../src/core/optional-import.js";
import { OPTIONAL_PACKAGES } from "../../src/core/optional-packages.js";
import { satisfiesRange } from "../../src/core/version-range.js";
import { tempDir } from "../helpers/fixtures.js";

const require = createRequire(import.meta.url);

describe("importOptional", () => {
  it("loads an installed optional package inside its range", async () => {
    const pg = await importOptional<{ Pool: unknown }>("pg", "The postgres scalar store");
    expect(typeof pg.Pool).toBe("function");
    expect(satisfiesRange(installedVersionOf("pg")!, OPTIONAL_PACKAGES.pg)).toBe(true);
  });

  it("a package that is not installed: MissingDependencyError naming it and the range to install", async () => {
    const error = await importOptional("faiss-node", "The faiss vector index").catch((caught: unknown) => caught);
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ packageName: "faiss-node", reason: "missing", range: OPTIONAL_PACKAGES["faiss-node"] });
    expect((error as Error).message).toBe('The faiss vector index needs the optional package "faiss-node": npm install "faiss-node@>=0.5.0"');
  });

  it("a package outside the supported range: the error names the range and the version found", () => {
    const error = new MissingDependencyError("pg", "The postgres scalar store", { reason: "version", range: "^8.0.0", installedVersion: "7.18.2" });
    expect(error.message).toBe('The postgres scalar store needs "pg" ^8.0.0, but 7.18.2 is installed: npm install "pg@^8.0.0"');
  });

  it("every optional package's range parses, and the versions installed for the tests are inside them", () => {
    for (const [name, range] of Object.entries(OPTIONAL_PACKAGES)) {
      const version = installedVersionOf(name);
      if (version !== undefined) expect([name, satisfiesRange(version, range)]).toEqual([name, true]);
    }
  });
});

describe("a native module whose build step never ran (npm 11 allowScripts, pnpm approve-builds)", () => {
  it("its real load error becomes a MissingDependencyError that says how to build it", () => {
    // A copy of better-sqlite3 and its `bindings` helper without the compiled addon, as pnpm leaves it.
    const dir = tempDir();
    try {
      const modules = join(dir.path, "node_modules");
      const source = join(require.resolve("better-sqlite3/package.json"), "..");
      mkdirSync(join(modules, "better-sqlite3"), { recursive: true });
      for (const part of ["lib", "package.json"]) cpSync(join(source, part), join(modules, "better-sqlite3", part), { recursive: true });
      for (const helper of ["bindings", "file-uri-to-path"]) cpSync(join(require.resolve(`${helper}/package.json`, { paths: [source] }), ".."), join(modules, helper), { recursive: true });
      const Database = createRequire(join(dir.path, "index.js"))("better-sqlite3") as new (path: string) => unknown;
      let loadError: unknown;
      try {
        new Database(":memory:");
      } catch (error) {
        loadError = error;
      }
      expect(String(loadError)).toMatch(/Could not locate the bindings file/);
      const error = nativeLoadError(loadError, "better-sqlite3", "The sqlite scalar store");
      expect(MissingDependencyError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: "binding", packageName: "better-sqlite3", cause: loadError });
      expect((error as Error).message).toMatch(/"allowScripts".*pnpm approve-builds.*npm rebuild better-sqlite3/);
    } finally {
      dir.cleanup();
    }
  });

  it("other load errors pass through unchanged", () => {
    const error = new Error("boom");
    expect(nativeLoadError(error, "better-sqlite3", "x")).toBe(error);
  });
});

describe("satisfiesRange", () => {
  it.each([
    ["1.18.2", "^1.0.0", true],
    ["2.0.0", "^1.0.0", false],
    ["0.5.3", "^0.5.0", true],
    ["0.6.0", "^0.5.0", false],
    ["0.0.16", "^0.0.15", false],
    ["0.3.1", ">=0.3.0 <2.0.0", true],
    ["2.0.0-beta.1", ">=0.3.0 <2.0.0", false],
    ["4.3.1", ">=3.0.0 <5.0.0", true],
    ["not a version", "^1.0.0", false],
  ])("%s in %s: %s", (version, range, inside) => {
    expect(satisfiesRange(version, range)).toBe(inside);
  });
});
