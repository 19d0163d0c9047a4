/** One fake OpenAI server, a real `openai` client aimed at it, a cache and the wrapped client, closed after each test. */
import OpenAI from "openai";
import { Cache, type CacheInitOptions } from "../../../src/index.js";
import { wrapOpenAI, type CachedOpenAI, type WrapOpenAIOptions } from "../../../src/adapters/openai/index.js";
import { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer } from "../../../src/testing/index.js";
import { tempDir } from "../../helpers/fixtures.js";

export interface Harness {
  server: FakeOpenAIServer;
  client: OpenAI;
  cache: Cache;
  openai: CachedOpenAI<OpenAI>;
  /** A temporary folder for this test (SQLite files, the object store). */
  dir: string;
  /** The JSON bodies the server received on a path, in order. */
  bodies(path: string): Array<Record<string, unknown>>;
}

export interface HarnessOptions {
  server?: FakeOpenAIOptions;
  /** Cache init options; a function gets the test's temp folder. Default: an exact-match cache in memory. */
  cache?: CacheInitOptions | ((dir: string) => CacheInitOptions);
  wrap?: Omit<WrapOpenAIOptions, "cache">;
}

const cleanups: Array<() => unknown> = [];

/** Closes everything the tests opened (register in afterEach). */
export async function closeAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export function defer(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

export async function setup(options: HarnessOptions = {}): Promise<Harness> {
  const dir = tempDir("semcache-openai-");
  cleanups.push(dir.cleanup);
  const server = await startFakeOpenAI(options.server);
  cleanups.push(() => server.close());
  const cache = new Cache();
  await cache.init(typeof options.cache === "function" ? options.cache(dir.path) : options.cache);
  cleanups.push(() => cache.close());
  const client = new OpenAI({ apiKey: "test-key", baseURL: server.baseURL, maxRetries: 0 });
  return {
    server,
    client,
    cache,
    openai: wrapOpenAI(client, { ...options.wrap, cache }),
    dir: dir.path,
    bodies: (path) => server.requests.filter((request) => request.path === path).map((request) => request.json ?? {}),
  };
}

export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

/** A user message. */
export function ask(content: string) {
  return [{ role: "user" as const, content }];
}
