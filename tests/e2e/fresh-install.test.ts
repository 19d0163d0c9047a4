/**
 * A LangChain user's first minutes: the packed package installed with plain `npm install` next to
 * @langchain/core, @langchain/openai and langchain in a new app (from the registry), then loaded with import and
 * require, compiled strictly, and used with one line. Slow (an install from the registry, native builds).
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

describe("a fresh app installs the packed package with plain npm", () => {
  let packDir: string;
  let app: FreshApp;

  beforeAll(async () => {
    packDir = mkdtempSync(join(tmpdir(), "semcache-pack-"));
    const tarball = await packPackage(packDir);
    app = await installFreshApp([tarball, ...LANGCHAIN_PACKAGES, "typescript@5", "@types/node@20"]);
    for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(app.dir, file));
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => {
    app?.cleanup();
    rmSync(packDir, { recursive: true, force: true });
  });

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
