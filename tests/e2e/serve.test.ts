import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CacheClient } from "../../src/server/client.js";
import { tempDir } from "../helpers/fixtures.js";
import { runCli, startServer, type CliProcess } from "./cli-process.js";

describe("semcache serve as a real process", () => {
  const running: CliProcess[] = [];
  const dirs: Array<{ cleanup(): void }> = [];
  const newDir = () => {
    const dir = tempDir("semcache-e2e-");
    dirs.push(dir);
    return dir.path;
  };
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGKILL");
      await cli.exited;
    }
    for (const dir of dirs.splice(0)) dir.cleanup();
  });

  it("keeps an acknowledged put across SIGKILL: restarted on the same data dir, the answer is there (exact and reworded)", async () => {
    const data = newDir();
    const first = await startServer(["-d", data]);
    running.push(first);
    const client = new CacheClient(first.url);
    expect(await client.put("How do I reset my password?", "Use the 'forgot password' link.")).toBe(200);
    expect(await client.get("How do I reset my password?")).toBe("Use the 'forgot password' link.");
    client.close();
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");

    const second = await startServer(["-d", data]);
    running.push(second);
    const again = new CacheClient(second.url);
    try {
      expect(await again.get("How do I reset my password?")).toBe("Use the 'forgot password' link.");
      // The index was rebuilt from the rows: the offline semantic preset still matches a rewording.
      expect(await again.get("How can I reset my password?")).toBe("Use the 'forgot password' link.");
      expect(await again.get("How do I delete my account?")).toBeNull();
    } finally {
      again.close();
    }
  }, 90_000);

  it("stops gracefully on SIGTERM (exit 0, store flushed), and serves /docs with its assets", async () => {
    const data = newDir();
    const server = await startServer(["-d", data]);
    running.push(server);
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/swagger-ui/i);
    const spec = (await (await fetch(`${server.url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/put", "/get", "/v1/chat/completions"]));
    const asset = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(100_000);

    const client = new CacheClient(server.url);
    await client.put("What is the boiling point of water?", "100 °C at sea level.");
    client.close();
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/SIGTERM, finishing requests in flight and closing the store/);

    const stats = await runCli(["stats", "-d", data, "--json"]);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ entries: 1 });
  }, 90_000);

  it("refuses a non-loopback address without API keys, and a config with a wrong key, before listening (exit 2)", async () => {
    const open = await runCli(["serve", "-s", "0.0.0.0", "-p", "0", "-f", writeConfig(newDir(), "embedding: string\n")]);
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 with no API key/);
    const typo = await runCli(["serve", "-p", "0", "-f", writeConfig(newDir(), "embedding: string\nserver:\n  api_keys: [k]\n  limits:\n    body_limt: 5\n")]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Unknown config key in server\.limits: body_limt/);
    expect(typo.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("runs from a GPTCache YAML config with its server section (keys, namespaces)", async () => {
    const dir = newDir();
    const config = writeConfig(dir, `embedding: string\nstorage_config:\n  data_dir: ${join(dir, "data")}\nserver:\n  api_keys:\n    - admin\n    - { key_env: TENANT_KEY, namespace: tenant }\n`);
    const server = await startServer(["-f", config], { TENANT_KEY: "tenant-secret" });
    running.push(server);
    const admin = new CacheClient(server.url, { apiKey: "admin" });
    const tenant = new CacheClient(server.url, { apiKey: "tenant-secret" });
    try {
      await tenant.put("q", "tenant answer");
      expect(await tenant.get("q")).toBe("tenant answer");
      expect(await admin.get("q")).toBeNull();
      const anonymous = new CacheClient(server.url);
      await expect(anonymous.get("q")).rejects.toMatchObject({ status: 401 });
      anonymous.close();
    } finally {
      admin.close();
      tenant.close();
    }
  }, 60_000);
});

function writeConfig(dir: string, yaml: string): string {
  const file = join(dir, "config.yaml");
  writeFileSync(file, yaml);
  return file;
}
