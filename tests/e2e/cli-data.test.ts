import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CacheClient } from "../../src/server/client.js";
import { tempDir } from "../helpers/fixtures.js";
import { runCli, startServer, type CliProcess } from "./cli-process.js";

const PAIRS = [
  { question: "What is the capital of France?", answer: "Paris" },
  { question: "What is the capital of Italy?", answer: "Rome" },
  { question: "What is the capital of Spain?", answer: "Madrid" },
];

describe("semcache import, export and stats", () => {
  let dir: { path: string; cleanup(): void };
  let config: string;
  const running: CliProcess[] = [];
  const file = (name: string, content: string) => {
    const path = join(dir.path, name);
    writeFileSync(path, content);
    return path;
  };
  beforeEach(() => {
    dir = tempDir("semcache-cli-");
    // Exact match keeps these tests quick; the semantic preset is covered by serve.test.ts.
    config = file("config.yaml", `embedding: string\nstorage_config:\n  data_dir: ${join(dir.path, "data")}\nserver:\n  api_keys: [admin, { key: team-key, namespace: team }]\n`);
  });
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.child.kill("SIGKILL");
      await cli.exited;
    }
    dir.cleanup();
  });

  it("imports JSON Lines with a progress bar, exports them back, and counts them (in process)", async () => {
    const pairs = file("pairs.jsonl", `${PAIRS.map((pair) => JSON.stringify(pair)).join("\n")}\n\n`);
    const imported = await runCli(["import", pairs, "-f", config, "--batch", "2"]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe(`imported 3 pairs from ${pairs}\n`);
    expect(imported.stderr).toContain(`[${"#".repeat(20)}${".".repeat(10)}] 2/3 pairs 66%`);
    expect(imported.stderr).toContain("[##############################] 3/3 pairs 100%");

    const exported = await runCli(["export", "-f", config]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map(({ question, answer }) => ({ question, answer }))).toEqual(PAIRS);
    expect(exported.stderr).toBe("exported 3 entries\n");

    const out = join(dir.path, "out.jsonl");
    expect((await runCli(["export", "-f", config, "--out", out])).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(exported.stdout);

    const stats = await runCli(["stats", "-f", config]);
    expect(stats.stdout).toMatch(/^entries +3$/m);
    // An export reads back as an import (create_on and hit_count start afresh), into another store.
    const other = file("other.yaml", `embedding: string\nstorage_config:\n  data_dir: ${join(dir.path, "other")}\n`);
    expect((await runCli(["import", out, "-f", other])).stdout).toMatch(/imported 3 pairs/);
  }, 60_000);

  it("reads a JSON array with prompt/answer too, into a namespace", async () => {
    const pairs = file("pairs.json", JSON.stringify([{ prompt: "ping", answer: "pong" }]));
    expect((await runCli(["import", pairs, "-f", config, "--namespace", "team"])).stdout).toMatch(/imported 1 pairs from .* into namespace team/);
    const server = await startServer(["-f", config]);
    running.push(server);
    const team = new CacheClient(server.url, { apiKey: "admin", namespace: "team" });
    const shared = new CacheClient(server.url, { apiKey: "admin" });
    try {
      expect(await team.get("ping")).toBe("pong");
      expect(await shared.get("ping")).toBeNull();
    } finally {
      team.close();
      shared.close();
    }
  }, 60_000);

  it("an export imported into another store keeps each entry's namespace; image entries are skipped", async () => {
    const pairs = file("pairs.jsonl", JSON.stringify({ question: "ping", answer: "team pong" }));
    expect((await runCli(["import", pairs, "-f", config, "--namespace", "team"])).code).toBe(0);
    const out = join(dir.path, "out.jsonl");
    expect((await runCli(["export", "-f", config, "--out", out])).code).toBe(0);
    const [line] = readFileSync(out, "utf8").trim().split("\n").map((text) => JSON.parse(text));
    expect(line.partition).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const image = { question: "a red bicycle", answer: "objects/1f2e.png", answer_type: "image_url", create_on: 1, hit_count: 0 };
    writeFileSync(out, `${readFileSync(out, "utf8")}${JSON.stringify(image)}\n${JSON.stringify({ question: "shared", answer: "for all" })}\n`);

    const other = file("other.yaml", `embedding: string\nstorage_config:\n  data_dir: ${join(dir.path, "other")}\n`);
    const refused = await runCli(["import", out, "-f", other, "--namespace", "team"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/holds exported partitions.*without --namespace/);
    const imported = await runCli(["import", out, "-f", other]);
    expect(imported.stdout).toBe(`imported 2 pairs from ${out}; skipped 1 with a non-text answer (an export holds no image files)\n`);
    const again = (await runCli(["export", "-f", other])).stdout.trim().split("\n").map((text) => JSON.parse(text));
    expect(again.map(({ question, answer, partition }) => ({ question, answer, partition }))).toEqual([
      { question: "ping", answer: "team pong", partition: line.partition },
      { question: "shared", answer: "for all", partition: undefined },
    ]);
  }, 60_000);

  it("talks to a running server with --url and --key", async () => {
    const server = await startServer(["-f", config]);
    running.push(server);
    const pairs = file("pairs.jsonl", PAIRS.map((pair) => JSON.stringify(pair)).join("\n"));
    const imported = await runCli(["import", pairs, "--url", server.url, "--key", "admin"]);
    expect(imported.code).toBe(0);
    const client = new CacheClient(server.url, { apiKey: "admin" });
    try {
      expect(await client.get("What is the capital of Italy?")).toBe("Rome");
    } finally {
      client.close();
    }
    const stats = await runCli(["stats", "--url", server.url], { SEMCACHE_API_KEY: "admin" });
    expect(stats.stdout).toMatch(/^entries +3$/m);
    expect(stats.stdout).toMatch(/^hits +1 \(100\.0%\)$/m);
    expect(stats.stdout).toMatch(/^data +\d+ +[\d.]+$/m);
    const exported = await runCli(["export", "--url", server.url, "--key", "admin"]);
    expect(exported.stdout.trim().split("\n")).toHaveLength(3);
    // A tenant's key sees its namespace's lookups only, never the store's totals.
    const tenant = await runCli(["stats", "--url", server.url, "--key", "team-key"]);
    expect(tenant.code).toBe(0);
    expect(tenant.stdout).toMatch(/^namespace +team$/m);
    expect(tenant.stdout).toMatch(/^requests +0$/m);
    expect(tenant.stdout).not.toMatch(/^entries/m);
    const refused = await runCli(["stats", "--url", server.url, "--key", "wrong"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/answered 401 SEMCACHE_UNAUTHORIZED: Unknown API key/);
  }, 60_000);

  it.each([
    ["a missing file", () => join(dir.path, "missing.jsonl"), /Cannot read .*missing\.jsonl: ENOENT/],
    ["a line that is not JSON", () => file("bad.jsonl", '{"question": "a", "answer": "b"}\n{oops\n'), /line 2 is not valid JSON/],
    ["a pair without an answer", () => file("half.jsonl", '{"question": "a"}\n'), /line 1 is not \{ question, answer \}/],
    ["an empty file", () => file("empty.jsonl", "\n"), /has no pairs/],
    ["a partition no export writes", () => file("part.jsonl", '{"question": "a", "answer": "b", "partition": "team"}\n'), /line 1 has a "partition" that no export writes/],
    ["only image entries", () => file("images.jsonl", '{"question": "a", "answer": "k.png", "answer_type": "image_url"}\n'), /has no pairs with a text answer \(1 non-text skipped\)/],
  ])("import exits 2 with a message on %s, storing nothing", async (_name, path, message) => {
    const result = await runCli(["import", path(), "-f", config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
