/**
 * docker/entrypoint.sh, run with sh outside a container (no Docker engine here): SEMCACHE_BIN points it at a
 * `semcache` that runs the sources. With a key (SEMCACHE_API_KEY or a *_FILE secret) it starts `semcache serve`
 * on 0.0.0.0, /healthz answers without a key, a request without the key is a 401, and the key is not on the
 * command line; without one it refuses to start on 0.0.0.0, saying how to fix it. With PostgreSQL, two
 * entrypoints run the replicated setup of docker/compose.yaml (its replica.yaml) and share entries.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CacheClient } from "../../src/server/client.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { tempDir } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix } from "../helpers/server-stores.js";
import { listeningUrl, startProcess, type CliProcess } from "./cli-process.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const ENTRYPOINT = join(ROOT, "docker", "entrypoint.sh");
const KEY = "container-test-key-6f1d2c";

const dir = tempDir("semcache-entrypoint-");
/** A `semcache` command running the sources, as the image's runs dist/cli/index.js. */
const BIN = join(dir.path, "semcache");
writeFileSync(BIN, `#!/bin/sh\nexec "${process.execPath}" --import "${join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")}" "${join(ROOT, "src", "cli", "index.ts")}" "$@"\n`);
chmodSync(BIN, 0o755);

/** The variables the image sets, with nothing inherited from this process that the entrypoint reads. */
function containerEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const cleared = Object.fromEntries(
    ["SEMCACHE_API_KEY", "SEMCACHE_CONFIG", "SEMCACHE_ALLOW_UNAUTHENTICATED", "SEMCACHE_CREDENTIAL_SECRET", "SEMCACHE_POSTGRES_URL"].flatMap((name) => [
      [name, ""],
      [`${name}_FILE`, ""],
    ]),
  );
  return { ...cleared, SEMCACHE_BIN: BIN, SEMCACHE_HOST: "0.0.0.0", SEMCACHE_PORT: "0", SEMCACHE_LOG_LEVEL: "warn", ...extra };
}

const running: CliProcess[] = [];
function entrypoint(env: NodeJS.ProcessEnv): CliProcess {
  const child = startProcess("sh", [ENTRYPOINT], ROOT, containerEnv(env));
  running.push(child);
  return child;
}

/** Where a server printed it listens on 0.0.0.0, reached over loopback. */
async function reachable(server: CliProcess): Promise<string> {
  return (await listeningUrl(server)).replace("://0.0.0.0:", "://127.0.0.1:");
}

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
    await child.exited;
  }
});
afterAll(() => dir.cleanup());

describe("docker/entrypoint.sh", () => {
  it("with the key in a *_FILE secret: serves on 0.0.0.0, /healthz is public, no key is a 401, and the key is not on the command line", async () => {
    const keyFile = join(dir.path, "api_key");
    writeFileSync(keyFile, `${KEY}\n`);
    const server = entrypoint({ SEMCACHE_API_KEY_FILE: keyFile, SEMCACHE_DATA_DIR: join(dir.path, "data") });
    const url = await reachable(server);
    expect(server.stdout()).toMatch(/^semcache listening on http:\/\/0\.0\.0\.0:\d+ /);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const anonymous = await fetch(`${url}/put`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "q", answer: "a" }) });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "SEMCACHE_UNAUTHORIZED" } });
    const wrong = new CacheClient(url, { apiKey: "not-the-key" });
    await expect(wrong.get("What is the capital of France?")).rejects.toMatchObject({ status: 401 });
    wrong.close();

    const client = new CacheClient(url, { apiKey: KEY });
    expect(await client.put("What is the capital of France?", "Paris")).toBe(200);
    expect(await client.get("What is the capital of France?")).toBe("Paris");
    client.close();

    // The shell exec'd the server (same pid); the key travels in its environment only.
    const commandLine = readFileSync(`/proc/${server.child.pid}/cmdline`, "utf8").split("\0");
    expect(commandLine).toEqual(expect.arrayContaining(["serve", "--host", "0.0.0.0", "--api-key-env", "SEMCACHE_API_KEY"]));
    expect(commandLine.join(" ")).not.toContain(KEY);

    // docker stop's SIGTERM reaches the server itself: it stops gracefully.
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/semcache: stopped/);
  }, 120_000);

  it("without a key, refuses to start on 0.0.0.0 with a message saying what to set, before semcache runs", async () => {
    const refused = entrypoint({ SEMCACHE_BIN: join(dir.path, "never-run") });
    expect(await refused.exited).toBe(2);
    expect(refused.stdout()).toBe("");
    expect(refused.stderr()).toBe(
      "semcache: refusing to listen on 0.0.0.0 with no API key: anyone who can reach the port could read and write the cache. " +
        "Set SEMCACHE_API_KEY (or SEMCACHE_API_KEY_FILE, a file such as a Docker secret holding it); or listen on 127.0.0.1 " +
        "(SEMCACHE_HOST); or set SEMCACHE_ALLOW_UNAUTHENTICATED=true.\n",
    );
  });

  it("refuses a key given twice, and a key file it cannot read or that is empty", async () => {
    const empty = join(dir.path, "empty_key");
    writeFileSync(empty, "\n");
    const cases: Array<[NodeJS.ProcessEnv, string]> = [
      [{ SEMCACHE_API_KEY: KEY, SEMCACHE_API_KEY_FILE: empty }, "semcache: set SEMCACHE_API_KEY or SEMCACHE_API_KEY_FILE, not both.\n"],
      [{ SEMCACHE_API_KEY_FILE: join(dir.path, "missing") }, `semcache: SEMCACHE_API_KEY_FILE names ${join(dir.path, "missing")}, which cannot be read.\n`],
      [{ SEMCACHE_API_KEY_FILE: empty }, `semcache: SEMCACHE_API_KEY_FILE names ${empty}, which is empty.\n`],
    ];
    for (const [env, message] of cases) {
      const refused = entrypoint({ ...env, SEMCACHE_BIN: join(dir.path, "never-run") });
      expect({ code: await refused.exited, stderr: refused.stderr() }).toEqual({ code: 2, stderr: message });
    }
  });
});

const postgresUrl = testUrl("postgres");

(postgresUrl ? describe : describe.skip)("docker/compose.yaml's replicas (its replica.yaml) over PostgreSQL", () => {
  const prefix = uniquePrefix("ctr");
  afterAll(async () => {
    const store = new PostgresScalarStore({ url: postgresUrl, tablePrefix: prefix });
    await store.drop();
    await store.close();
  });

  it("two entrypoints with the same config and key, each with its own data dir, share the entries", async () => {
    // The compose file's config, on tables of this run's own.
    const config = join(dir.path, "replica.yaml");
    writeFileSync(config, readFileSync(join(ROOT, "docker", "replica.yaml"), "utf8").replace("table_prefix: semcache_", `table_prefix: ${prefix}`));
    const shared = {
      SEMCACHE_CONFIG: config,
      SEMCACHE_API_KEY: KEY,
      SEMCACHE_POSTGRES_URL: postgresUrl,
      SEMCACHE_CREDENTIAL_SECRET: "a-secret-shared-by-both-replicas",
    };
    const replicas = [entrypoint({ ...shared, SEMCACHE_DATA_DIR: join(dir.path, "r1") }), entrypoint({ ...shared, SEMCACHE_DATA_DIR: join(dir.path, "r2") })];
    const [a, b] = (await Promise.all(replicas.map(reachable))).map((url) => new CacheClient(url, { apiKey: KEY }));
    try {
      expect(replicas[0].stdout()).toMatch(/stores postgres,hnswlib/);
      expect(await a.put("How many legs does a spider have?", "Eight.")).toBe(200);
      expect(await b.get("How many legs does a spider have?")).toBe("Eight.");
    } finally {
      a.close();
      b.close();
    }
    for (const replica of replicas) replica.child.kill("SIGTERM");
    expect(await Promise.all(replicas.map((replica) => replica.exited))).toEqual([0, 0]);
  }, 180_000);
});
