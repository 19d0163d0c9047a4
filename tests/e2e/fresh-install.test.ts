/**
 * A LangChain user's first minutes: the packed package installed with plain `npm install` (and plain pnpm 10)
 * next to @langchain/core, @langchain/openai and langchain in a new app (from the registry), then loaded with
 * import and require, compiled strictly, and used with one line. Slow (installs from the registry, native builds).
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installFreshApp, LANGCHAIN_PACKAGES, packPackage, type FreshApp } from "../helpers/fresh-app.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/fresh-app", import.meta.url));
const INSTALL_TIMEOUT_MS = 10 * 60_000;

interface FirstUse {
  modelCalls: number;
  repeat: { hit: boolean; score: number } | null;
  reworded: { hit: boolean; score: number } | null;
}

let packDir: string;
let tarball: string;

beforeAll(async () => {
  packDir = mkdtempSync(join(tmpdir(), "semcache-pack-"));
  tarball = await packPackage(packDir);
}, INSTALL_TIMEOUT_MS);

afterAll(() => rmSync(packDir, { recursive: true, force: true }));

/** A fresh app with the packed package and LangChain installed by `installer`, and the fixtures copied in. */
async function freshApp(installer: "npm" | "pnpm", extra: string[] = []): Promise<FreshApp> {
  const app = await installFreshApp([tarball, ...LANGCHAIN_PACKAGES, ...extra], installer);
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(app.dir, file));
  return app;
}

describe("a fresh app installs the packed package with plain npm", () => {
  let app: FreshApp;

  beforeAll(async () => {
    app = await freshApp("npm", ["typescript@5", "@types/node@20"]);
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => app?.cleanup());

  it("new SemanticCache() as ChatOpenAI's cache answers a repeat and a reworded question, as an ES module", async () => {
    const result = JSON.parse(await app.exec("node", ["first-use.mjs"])) as FirstUse;
    expect(result.modelCalls).toBe(1);
    expect(result.repeat).toMatchObject({ hit: true, score: 1 });
    expect(result.reworded?.hit).toBe(true);
  }, 120_000);

  it("the same with require()", async () => {
    const result = JSON.parse(await app.exec("node", ["first-use.cjs"])) as FirstUse;
    expect(result.modelCalls).toBe(1);
    expect(result.repeat?.hit).toBe(true);
    expect(result.reworded?.hit).toBe(true);
  }, 120_000);

  it("its types compile in a strict app with skipLibCheck off and none of the optional packages", async () => {
    await expect(app.exec("npx", ["tsc", "-p", "."])).resolves.toBeDefined();
  }, 120_000);
});

describe("a fresh app installs it with plain pnpm 10, which skips the native builds", () => {
  let app: FreshApp;

  beforeAll(async () => {
    app = await freshApp("pnpm");
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => app?.cleanup());

  it("new SemanticCache() answers a repeat and a reworded question from usearch's prebuilt binary, with no build step and no warning", async () => {
    const { stdout, stderr } = await app.execOutput("node", ["first-use.mjs"]);
    const result = JSON.parse(stdout) as FirstUse;
    expect(result.modelCalls).toBe(1);
    expect(result.repeat).toMatchObject({ hit: true, score: 1 });
    expect(result.reworded?.hit).toBe(true);
    expect(stderr).not.toMatch(/FlatIndex|approve-builds/);
  }, 120_000);

  it("a cache on disk (dataDir) fails open, saying to approve better-sqlite3's build: the model answers", async () => {
    const { stdout, stderr } = await app.execOutput("node", ["data-dir-use.mjs"]);
    expect(JSON.parse(stdout)).toEqual({ modelCalls: 2 });
    expect(stderr).toMatch(/better-sqlite3|hnswlib-node/);
    expect(stderr).toMatch(/pnpm approve-builds/);
  }, 120_000);
});
