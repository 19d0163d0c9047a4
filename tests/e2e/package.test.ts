/**
 * The package as npm publishes it: `npm pack` (its prepack builds dist/ afresh) unpacked where an install puts
 * it, with the `semcache` bin linked as npm links it. Its dependencies resolve from this repository's
 * node_modules (the unpacked folder sits inside it: no registry is needed), so a separate check holds every
 * bare import in dist/ to a declared dependency, a peer or a Node built-in.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { OPTIONAL_PACKAGES } from "../../src/core/optional-packages.js";
import { listeningUrl, startProcess } from "./cli-process.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  bin: Record<string, string>;
  exports: Record<string, string | Record<"import" | "require", { types: string; default: string }>>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** Every file the exports map names. */
function exportedFiles(): string[] {
  return Object.values(manifest.exports).flatMap((entry) =>
    typeof entry === "string" ? [entry] : Object.values(entry).flatMap((condition) => [condition.types, condition.default]),
  );
}

/** The package name of a bare specifier ("@scope/name/sub" -> "@scope/name"). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function* jsFiles(dir: string): Iterable<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* jsFiles(path);
    else if (entry.name.endsWith(".js")) yield path;
  }
}

describe("the packed package", () => {
  let project: string;
  let installed: string;
  let packed: string[];

  beforeAll(async () => {
    project = mkdtempSync(join(ROOT, "node_modules", ".semcache-pack-"));
    installed = join(project, "node_modules", manifest.name);
    mkdirSync(installed, { recursive: true });
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", project], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    const [pack] = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    packed = pack.files.map((file) => file.path);
    await run("tar", ["-xzf", join(project, pack.filename), "-C", installed, "--strip-components", "1"]);
    // What `npm install` does with the bin entry.
    mkdirSync(join(project, "node_modules", ".bin"));
    for (const [name, path] of Object.entries(manifest.bin)) {
      chmodSync(join(installed, path), 0o755);
      symlinkSync(join("..", manifest.name, path), join(project, "node_modules", ".bin", name));
    }
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "packed-test", private: true, type: "module" }));
  }, 240_000);

  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("holds the built code, docs, README, LICENSE and package.json only, and a bin with a shebang", () => {
    expect(packed.filter((path) => !/^(dist|docs)\//.test(path)).sort()).toEqual(["LICENSE", "README.md", "package.json"]);
    expect(packed.some((path) => path.startsWith("dist/") && path.endsWith(".ts") && !path.endsWith(".d.ts"))).toBe(false);
    for (const path of Object.values(manifest.bin)) expect(readFileSync(join(installed, path), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    for (const path of exportedFiles()) expect(packed).toContain(relative(".", path));
  });

  it("imports only declared packages: static imports need a dependency or a peer, lazy ones may name an optional package", () => {
    // `langchain` is an optional peer that only the agents entry imports (its users run createAgent).
    expect(manifest.peerDependencies).toEqual({ "@langchain/core": "^1.0.0", langchain: "^1.0.0" });
    expect(manifest.peerDependenciesMeta).toEqual({ langchain: { optional: true } });
    const agentsOnly = (where: string, specifier: string) => packageOf(specifier) === "langchain" && !/^dist\/(?:cjs\/)?agents\//.test(where);
    const required = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const declared = new Set([...required, ...Object.keys(OPTIONAL_PACKAGES)]);
    const builtin = (specifier: string) => specifier.startsWith("node:") || builtinModules.includes(packageOf(specifier));
    const undeclared: string[] = [];
    let seen = 0;
    for (const file of jsFiles(join(installed, "dist"))) {
      const code = readFileSync(file, "utf8");
      const where = relative(installed, file);
      for (const [, specifier] of code.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"([^".][^"]*)"|^import\s+"([^".][^"]*)"/gm)) {
        seen++;
        if (specifier && !builtin(specifier) && (!required.has(packageOf(specifier)) || agentsOnly(where, specifier))) undeclared.push(`${where}: static ${specifier}`);
      }
      for (const [, specifier] of code.matchAll(/(?:\bimport|\bimportOptional)\(\s*"([^".][^"]*)"/g)) {
        seen++;
        if (!builtin(specifier) && !declared.has(packageOf(specifier))) undeclared.push(`${where}: lazy ${specifier}`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
  });

  it("loads every entry of its exports map by package name, with import and with require, to the same names", async () => {
    const names = Object.keys(manifest.exports).filter((path) => path !== "./package.json").map((path) => `${manifest.name}${path.slice(1)}`);
    const list = (load: string) => `const out = {}; for (const name of ${JSON.stringify(names)}) out[name] = Object.keys(${load}).sort(); console.log(JSON.stringify(out));`;
    const esm = await run(process.execPath, ["--input-type=module", "-e", `${list("await import(name)")}`], { cwd: project });
    const cjs = await run(process.execPath, ["-e", list("require(name)")], { cwd: project });
    const imported = JSON.parse(esm.stdout) as Record<string, string[]>;
    for (const name of names) expect(imported[name].length).toBeGreaterThan(0);
    // CommonJS adds `default` only where the ES module has one.
    expect(JSON.parse(cjs.stdout)).toEqual(imported);
  }, 60_000);

  it("new SemanticCache() loads its model under `node --input-type=module -e` and `node -e`, as from a file, and with per-process flags", async () => {
    // The model and SQLite's writes run on worker threads, which inherit the process's Node options:
    // --input-type=module must not make their CommonJS source an ES module ("require is not defined in ES module
    // scope"), and flags a worker refuses (--max-old-space-size, --expose-gc, --stack-size) must not stop them.
    const dataDir = mkdtempSync(join(tmpdir(), "semcache-flags-"));
    const body = (load: string, options = "") =>
      `const { SemanticCache } = ${load}; const cache = new SemanticCache({ onProgress: false${options} });
await cache.update("What is the capital of France?", "llm", [{ text: "Paris" }]);
const hit = await cache.lookup("Tell me the capital of France", "llm");
console.log(JSON.stringify(hit && hit[0].text)); await cache.close();`;
    const runs = [
      ["--input-type=module", "-e", body(`await import("${manifest.name}/langchain")`)],
      ["--input-type", "module", "-e", body(`await import("${manifest.name}/langchain")`)],
      ["-e", `(async () => { ${body(`require("${manifest.name}/langchain")`)} })()`],
      ["--max-old-space-size=512", "--expose-gc", "--stack-size=2000", "--input-type=module", "-e", body(`await import("${manifest.name}/langchain")`, `, dataDir: ${JSON.stringify(dataDir)}`)],
    ];
    try {
      for (const args of runs) {
        const { stdout, stderr } = await run(process.execPath, args, { cwd: project });
        expect({ args: args.slice(0, -1), stderr, answer: JSON.parse(stdout) }).toEqual({ args: args.slice(0, -1), stderr: "", answer: "Paris" });
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("runs the usearch index in a thread of its own from the built files, with import and with require", async () => {
    const body = (load: string) =>
      `const { ThreadedUsearchIndex } = ${load}; const index = new ThreadedUsearchIndex({ dimension: 2 });
await index.init(); await index.add([{ id: 7, vector: new Float32Array([1, 0]) }]);
console.log(JSON.stringify((await index.search(new Float32Array([1, 0]), 1))[0].id)); await index.close();`;
    const runs = [
      ["--input-type=module", "-e", body(`await import("${manifest.name}/stores")`)],
      ["-e", `(async () => { ${body(`require("${manifest.name}/stores")`)} })()`],
    ];
    for (const args of runs) {
      const { stdout, stderr } = await run(process.execPath, args, { cwd: project });
      expect({ args: args.slice(0, -1), stderr, id: JSON.parse(stdout) }).toEqual({ args: args.slice(0, -1), stderr: "", id: 7 });
    }
  }, 60_000);

  it("`npx semcache` finds the linked bin", async () => {
    const { stdout } = await run("npx", ["--no", "--", "semcache", "--help"], { cwd: project });
    expect(stdout).toMatch(/^Usage: semcache <command>/);
  }, 60_000);

  it("the bin serves the offline default preset and stops cleanly on SIGTERM", async () => {
    // The linked bin itself, as npx runs it: a signal sent to npx does not reach the server it started.
    const serve = startProcess(join(project, "node_modules", ".bin", "semcache"), ["serve", "-p", "0", "-d", join(project, "data"), "--log-level", "warn"], project);
    try {
      const url = await listeningUrl(serve);
      const post = async (path: string, body: unknown) =>
        (await (await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()) as Record<string, unknown>;
      expect(await post("/put", { prompt: "What is the capital of France?", answer: "Paris" })).toEqual({ ok: true });
      expect(await post("/get", { prompt: "What is the capital of France?" })).toEqual({ prompt: "What is the capital of France?", answer: "Paris" });
      expect((await post("/get", { prompt: "How do I bake sourdough bread?" })).answer).toBeNull();
      serve.child.kill("SIGTERM");
      expect(await serve.exited).toBe(0);
    } finally {
      serve.child.kill("SIGKILL");
    }
  }, 180_000);
});
