/**
 * The container files, checked without a Docker engine (none runs here, and hadolint is not installed): the
 * Dockerfile's structure (stages, pinned bases, a non-root user, the health check, the entrypoint), that its
 * build context holds what it copies, the compose file's replicated setup, and that `npm pack` ships none of it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments and parser directives dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  return joined
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

/** Instructions grouped by stage, each with its base image and name. */
function stages(list: Instruction[]): Array<{ base: string; name?: string; body: Instruction[] }> {
  const out: Array<{ base: string; name?: string; body: Instruction[] }> = [];
  for (const instruction of list) {
    if (instruction.keyword === "FROM") {
      const [base, as, name] = instruction.args.replace(/--platform=\S+\s+/, "").split(/\s+/);
      out.push({ base, name: as?.toUpperCase() === "AS" ? name : undefined, body: [] });
    } else {
      out.at(-1)?.body.push(instruction);
    }
  }
  return out;
}

describe("Dockerfile", () => {
  const list = instructions(read("Dockerfile"));
  const all = stages(list);
  const final = all.at(-1)!;
  const named = new Set(all.map((stage) => stage.name));

  it("is multi-stage, every base pinned to a version (no latest, no bare name) and every stage named", () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const stage of all) {
      expect(stage.name).toMatch(/^[a-z][a-z0-9-]*$/);
      if (named.has(stage.base)) continue;
      expect(stage.base).toMatch(/^[\w./-]+:\d+(\.\d+)+[\w.-]*$/);
      expect(stage.base).not.toMatch(/:latest$/);
    }
    expect(list.some((i) => i.keyword === "ADD")).toBe(false);
    expect(list.filter((i) => i.keyword === "FROM").some((i) => /:latest\b/.test(i.args))).toBe(false);
  });

  it("runs as a non-root user, by number, from before the entrypoint on", () => {
    const users = final.body.filter((i) => i.keyword === "USER");
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args;
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(Number(user.split(":")[0])).toBeGreaterThan(0);
    expect(final.body.findIndex((i) => i.keyword === "USER")).toBeLessThan(final.body.findIndex((i) => i.keyword === "ENTRYPOINT"));
  });

  it("checks health on /healthz, listens on 0.0.0.0:8000 by default and starts through the entrypoint script", () => {
    const health = final.body.filter((i) => i.keyword === "HEALTHCHECK");
    expect(health).toHaveLength(1);
    expect(health[0].args).toMatch(/--interval=\d+s/);
    expect(health[0].args).toMatch(/--start-period=\d+s/);
    expect(health[0].args).toContain("/healthz");
    const env = final.body.filter((i) => i.keyword === "ENV").map((i) => i.args).join(" ");
    expect(env).toContain("SEMCACHE_HOST=0.0.0.0");
    expect(env).toContain("SEMCACHE_PORT=8000");
    expect(final.body.find((i) => i.keyword === "EXPOSE")?.args).toBe("8000");
    expect(final.body.find((i) => i.keyword === "ENTRYPOINT")?.args).toBe('["semcache-entrypoint"]');
    expect(final.body.some((i) => i.keyword === "COPY" && i.args.includes("docker/entrypoint.sh /usr/local/bin/semcache-entrypoint"))).toBe(true);
  });

  it("installs the packed package's production dependencies only, and keeps compilers out of the final stage", () => {
    const runs = (stage: (typeof all)[number]) => stage.body.filter((i) => i.keyword === "RUN").map((i) => i.args).join("\n");
    expect(all.map(runs).join("\n")).toMatch(/npm pack/);
    expect(all.map(runs).join("\n")).toMatch(/npm (ci|install) --omit=dev/);
    expect(runs(final)).not.toMatch(/apt-get|npm (ci|install)|g\+\+/);
    // The image installs the same @langchain/core (a required peer) the repository is tested with.
    const image = JSON.parse(read("docker/package.json")) as { dependencies: Record<string, string> };
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version: string }> };
    expect(image.dependencies["@langchain/core"]).toBe(lock.packages["node_modules/@langchain/core"].version);
    expect(image.dependencies["langchain-semcache"]).toMatch(/^file:/);
  });

  it("copies only what the build context holds (.dockerignore lets through exactly the sources it reads)", () => {
    const ignore = read(".dockerignore").split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
    expect(ignore[0]).toBe("*");
    const allowed = ignore.filter((line) => line.startsWith("!")).map((line) => line.slice(1));
    const sources = list
      .filter((i) => i.keyword === "COPY" && !i.args.includes("--from="))
      .flatMap((i) => i.args.split(/\s+/).filter((part) => !part.startsWith("--")).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(existsSync(join(ROOT, source))).toBe(true);
      expect(allowed).toContain(source);
    }
  });
});

describe("docker/compose.yaml", () => {
  const compose = parse(read("docker/compose.yaml"), { merge: true }) as {
    services: Record<string, { image?: string; build?: object; environment?: Record<string, string>; volumes?: string[]; ports?: string[]; depends_on?: Record<string, { condition: string }>; healthcheck?: object }>;
  };
  const replicas = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

  it("runs two replicas of the image over a pinned PostgreSQL with a health check", () => {
    const postgres = compose.services.postgres;
    expect(postgres.image).toMatch(/^postgres:\d+\.\d+/);
    expect(postgres.healthcheck).toBeDefined();
    expect(replicas.map(([name]) => name)).toEqual(["semcache-1", "semcache-2"]);
    for (const [, service] of replicas) {
      expect(service.depends_on?.postgres.condition).toBe("service_healthy");
      expect(service.environment?.SEMCACHE_API_KEY).toMatch(/^\$\{SEMCACHE_API_KEY:\?/);
      expect(service.environment?.SEMCACHE_CREDENTIAL_SECRET).toMatch(/^\$\{SEMCACHE_CREDENTIAL_SECRET:\?/);
      expect(service.environment?.SEMCACHE_CONFIG).toBe("/etc/semcache/replica.yaml");
      expect(service.volumes).toContain("./replica.yaml:/etc/semcache/replica.yaml:ro");
    }
  });

  it("gives each replica its own /data (its index and data-dir lock) and its own port", () => {
    const data = replicas.map(([, service]) => service.volumes?.find((volume) => volume.endsWith(":/data")));
    expect(new Set(data).size).toBe(replicas.length);
    expect(data.every((volume) => volume !== undefined)).toBe(true);
    const ports = replicas.map(([, service]) => service.ports?.[0]);
    expect(new Set(ports).size).toBe(replicas.length);
  });

  it("has replicas run a valid config: the shared PostgreSQL store, an hnswlib index each, one credential secret", () => {
    const config = loadGptCacheConfig(read("docker/replica.yaml"), { SEMCACHE_POSTGRES_URL: "postgres://semcache:pw@postgres:5432/semcache" });
    expect(config.storage).toMatchObject({ manager: "postgres,hnswlib", syncIntervalMs: 250, scalarParams: { url: "postgres://semcache:pw@postgres:5432/semcache", tablePrefix: "semcache_" } });
    expect(config.serverOptions?.credentialSecretEnv).toBe("SEMCACHE_CREDENTIAL_SECRET");
  });
});

describe("the npm package", () => {
  it("ships none of the container files", () => {
    const [pack] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as Array<{ files: Array<{ path: string }> }>;
    const paths = pack.files.map((file) => file.path);
    expect(paths).toContain("package.json");
    expect(paths.filter((path) => /^(Dockerfile|\.dockerignore|docker\/)/.test(path))).toEqual([]);
  }, 60_000);
});
