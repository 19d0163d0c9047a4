import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isInstalled } from "../../src/config/read-context.js";
import { CacheClient } from "../../src/server/client.js";
import { tempDir } from "../helpers/fixtures.js";
import { GPTCACHE_TEMPLATE as TEMPLATE } from "../fixtures/gptcache-configs.js";
import { runCli, startServer, type CliProcess } from "./cli-process.js";



describe("semcache serve -f with GPTCache's own config files", () => {
  let dir: ReturnType<typeof tempDir>;
  let server: CliProcess | undefined;
  beforeEach(() => {
    dir = tempDir("semcache-e2e-");
  });
  afterEach(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
    await server?.exited;
    server = undefined;
    dir.cleanup();
  });

  it("starts from cache_config_template.yml as GPTCache ships it and answers put and get", async () => {
    const config = join(dir.path, "cache_config_template.yml");
    writeFileSync(config, TEMPLATE);
    // -d keeps the template's relative gptcache_data out of the working folder.
    const started = await startServer(["-f", config, "-d", join(dir.path, "data")]);
    server = started;
    const stores = isInstalled("faiss-node") && isInstalled("@langchain/community") ? "sqlite,faiss" : "sqlite,hnswlib";
    expect(started.stdout()).toContain(`stores ${stores}, judge DistanceEvaluation, threshold 0.8`);
    // What runs as something else here is said at startup.
    expect(started.stderr()).toContain("semcache: embedding: onnx runs as use here");
    if (stores === "sqlite,hnswlib") expect(started.stderr()).toContain('"sqlite,faiss" runs as "sqlite,hnswlib" here');
    const client = new CacheClient(started.url);
    try {
      expect(await client.put("What is the capital of France?", "Paris")).toBe(200);
      expect(await client.get("Which city is the capital of France?")).toBe("Paris");
      expect(await client.get("How do I bake sourdough bread at home?")).toBeNull();
    } finally {
      client.close();
    }
  }, 60_000);

  it("refuses a GPTCache component that cannot run here before loading anything, naming what to use (exit 2)", async () => {
    const config = join(dir.path, "audio.yml");
    writeFileSync(config, "embedding: data2vecaudio\nstorage_config:\n  manager: sqlite,faiss\n");
    const { code, stderr } = await runCli(["serve", "-f", config, "-d", dir.path]);
    expect(code).toBe(2);
    expect(stderr).toContain("embedding: data2vecaudio embeds audio, which no built-in embedding here does");
  }, 60_000);
});
