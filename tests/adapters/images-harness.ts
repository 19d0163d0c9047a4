/** Caches for the image and visual-question adapter tests: an object store in the test's temp folder, closed after each test. */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Cache, Config, DistanceEvaluation, managerFactory } from "../../src/index.js";
import type { ModelServerError } from "../../src/adapters/local-models/index.js";
import { BagOfWordsEmbedding, tempDir } from "../helpers/fixtures.js";
import { defer } from "./openai/harness.js";

export { closeAll, defer } from "./openai/harness.js";

export interface ImageCacheOptions {
  /** Exact match (the default) or semantic: bag-of-words embeddings, a flat index, a hit from 0.8. */
  semantic?: boolean;
  /** Without the object store images need. */
  noObjects?: boolean;
}

export async function imageCache(options: ImageCacheOptions = {}): Promise<Cache> {
  const dir = tempDir("semcache-images-");
  defer(dir.cleanup);
  const kinds = `memory,${options.semantic ? "flat" : ""}${options.noObjects ? "" : ",local"}`;
  const cache = new Cache();
  await cache.init({
    dataManager: managerFactory(kinds, { dataDir: dir.path }),
    ...(options.semantic
      ? { embeddingFunc: new BagOfWordsEmbedding(), similarityEvaluation: new DistanceEvaluation(), config: new Config({ similarityThreshold: 0.8 }) }
      : {}),
  });
  defer(() => cache.close());
  return cache;
}

/** The bytes behind a link an image adapter gave: a file:// of the object store, or a data: URL. */
export async function linkBytes(url: string): Promise<Buffer> {
  if (url.startsWith("file:")) return readFile(fileURLToPath(url));
  const data = /^data:[^,]*;base64,(.*)$/s.exec(url);
  if (data) return Buffer.from(data[1], "base64");
  throw new Error(`not a link an adapter gives: ${url}`);
}

export const PNG_SIGNATURE = "89504e470d0a1a0a";

/** What a call rejected with (a resolved call fails the test). */
export async function rejectionOf<E = ModelServerError>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (error: unknown) => error as E,
  );
}
