/**
 * What the SQLite store's writer thread costs a write, and a read beside it: awaited single-record inserts (a
 * 512-d embedding each) and exact lookups by key on one file, timed one by one. `--root` runs another checkout's
 * sources (e.g. a worktree of a commit before the writer thread) in the same way, for a side-by-side run:
 *   npx tsx bench/sqlite-writer.ts                                   # this checkout
 *   git worktree add /tmp/base bf7d979 && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   npx tsx bench/sqlite-writer.ts --root /tmp/base                  # the one before it, alternate the two runs
 *   options: --writes N (2000)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "./lib/args.js";

const args = parseArgs();
const root = resolve(args.value("root") ?? fileURLToPath(new URL("..", import.meta.url)));
const writes = args.number("writes", 2000);

type Store = {
  init(): Promise<void>;
  insert(records: unknown[]): Promise<number[]>;
  findByKey(key: string): Promise<unknown>;
  close(): Promise<void>;
};
const { SqliteScalarStore } = (await import(pathToFileURL(join(root, "src/stores/scalar/sqlite.ts")).href)) as {
  SqliteScalarStore: new (options: { path: string }) => Store;
};

const dir = mkdtempSync(join(tmpdir(), "semcache-bench-writer-"));
const store = new SqliteScalarStore({ path: join(dir, "cache.db") });
await store.init();
const embedding = () => Float32Array.from({ length: 512 }, () => Math.random());
const putMs: number[] = [];
for (let i = 0; i < writes; i++) {
  const record = { question: `q${i}`, answer: `a${i}`, answerType: "str", keyHash: `k${i}`, partition: "p", createdAtMs: Date.now(), embedding: embedding() };
  const started = performance.now();
  await store.insert([record]);
  putMs.push(performance.now() - started);
}
const getMs: number[] = [];
for (let i = 0; i < writes; i++) {
  const started = performance.now();
  await store.findByKey(`k${(i * 7919) % writes}`);
  getMs.push(performance.now() - started);
}
await store.close();
rmSync(dir, { recursive: true, force: true });

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const ms = (value: number) => value.toFixed(3);
console.log(
  `${root}: insert p50 ${ms(quantile(putMs, 0.5))} ms, p99 ${ms(quantile(putMs, 0.99))} ms; findByKey p50 ${ms(quantile(getMs, 0.5))} ms, p99 ${ms(quantile(getMs, 0.99))} ms (${writes} each)`,
);
