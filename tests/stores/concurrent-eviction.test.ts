/**
 * Several processes insert and evict at once on one shared store (PostgreSQL, MariaDB/MySQL, Redis): the live
 * count ends at or under maxSize, no record is evicted twice, and the store's count equals inserted minus
 * evicted (no drift).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { MySqlScalarStore } from "../../src/stores/scalar/mysql.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { RedisScalarStore } from "../../src/stores/scalar/redis.js";
import type { ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { TEST_URL_VARS, uniquePrefix } from "../helpers/server-stores.js";

const CHILD = fileURLToPath(new URL("../fixtures/evict-child.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROCESSES = 3;
const INSERTS = 60;
const MAX_SIZE = 25;
const CLEAN_SIZE = 4;

interface Child {
  process: ChildProcessWithoutNullStreams;
  lines: string[];
  exited: Promise<number | null>;
  waitFor(predicate: (line: string) => boolean): Promise<string>;
}

function start(args: string[]): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { cwd: ROOT });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  let stderr = "";
  let pending = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    process: child,
    lines,
    exited,
    async waitFor(predicate) {
      for (;;) {
        const found = lines.find(predicate);
        if (found !== undefined) return found;
        const woken = new Promise<void>((resolve) => waiters.push(resolve));
        const ended = exited.then((code) => {
          throw new Error(`child exited (code ${code}) before the expected line: ${stderr}`);
        });
        await Promise.race([woken, ended]);
      }
    },
  };
}

const kinds: Array<[string, keyof typeof TEST_URL_VARS, (url: string, prefix: string) => ScalarStore]> = [
  ["postgres", "postgres", (url, prefix) => new PostgresScalarStore({ url, tablePrefix: prefix })],
  ["mysql", "mysql", (url, prefix) => new MySqlScalarStore({ url, tablePrefix: prefix })],
  ["redis", "redis", (url, prefix) => new RedisScalarStore({ url, namespace: prefix })],
];

describe("concurrent eviction from several processes", () => {
  for (const [kind, service, open] of kinds) {
    const url = process.env[TEST_URL_VARS[service]];
    if (!url) {
      process.stderr.write(`[skip] ${kind} concurrent eviction: ${TEST_URL_VARS[service]} is not set\n`);
      it.skip(`${kind}: needs ${TEST_URL_VARS[service]}`, () => undefined);
      continue;
    }

    it(`${kind}: ${PROCESSES} processes inserting ${INSERTS} each with maxSize ${MAX_SIZE} end at most at maxSize, each eviction once, no drift`, async () => {
      const prefix = uniquePrefix(`ce${kind.slice(0, 2)}`);
      const store = open(url, prefix);
      await store.init();
      const children: Child[] = [];
      try {
        for (let i = 0; i < PROCESSES; i++) children.push(start([kind, url, prefix, String(INSERTS), String(MAX_SIZE), String(CLEAN_SIZE)]));
        await Promise.all(children.map((child) => child.waitFor((line) => line === "ready")));
        for (const child of children) child.process.stdin.write("go\n");
        const results = await Promise.all(
          children.map(async (child) => JSON.parse(await child.waitFor((line) => line.startsWith("{"))) as { inserted: number[]; evicted: number[] }),
        );
        expect(await Promise.all(children.map((child) => child.exited))).toEqual(children.map(() => 0));

        const inserted = results.flatMap((r) => r.inserted);
        const evicted = results.flatMap((r) => r.evicted);
        expect(new Set(inserted).size).toBe(PROCESSES * INSERTS);
        expect(new Set(evicted).size).toBe(evicted.length);
        expect(evicted.every((id) => inserted.includes(id))).toBe(true);
        const count = await store.count();
        expect(count).toBeLessThanOrEqual(MAX_SIZE);
        expect(count).toBe(inserted.length - evicted.length);
        const live: number[] = [];
        for await (const record of store.iterate()) live.push(record.id);
        expect(live.length).toBe(count);
        expect(live.filter((id) => evicted.includes(id))).toEqual([]);
      } finally {
        for (const child of children) child.process.kill();
        await (store as { drop(): Promise<void> } & ScalarStore).drop();
        await store.close();
      }
    });
  }
});
