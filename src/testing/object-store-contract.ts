import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ValidationError } from "../core/errors.js";
import type { ObjectStore } from "../core/contracts/object-store.js";
import { resolveRunner, type TestRunner } from "./runner.js";

export interface ObjectStoreContractOptions {
  name: string;
  /** A new store (not yet initialised); `dir` is a fresh temporary folder for this test, removed afterwards. */
  create: (context: { dir: string }) => ObjectStore | Promise<ObjectStore>;
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

/** The bytes behind a URL from getUrl: file:// is read from disk, anything else fetched. */
async function readUrl(url: string): Promise<Uint8Array> {
  if (url.startsWith("file:")) return new Uint8Array(await readFile(fileURLToPath(url)));
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function thrown(task: () => Promise<unknown>): Promise<unknown> {
  try {
    await task();
  } catch (error) {
    return error;
  }
  return undefined;
}

const ESCAPING_KEYS = ["../outside.png", "..", "/etc/passwd", "a/../../b", "sub/../../x", "..\\x"];

/** Registers the behaviours every ObjectStore must have. */
export function testObjectStore(options: ObjectStoreContractOptions): void {
  const { describe, it, expect, beforeEach, afterEach } = resolveRunner(options.runner);
  describe(`ObjectStore contract: ${options.name}`, () => {
    let dir: string;
    let store: ObjectStore;

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "semcache-object-contract-"));
      store = await options.create({ dir });
      await store.init();
    });

    afterEach(async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    });

    it("returns the exact bytes it was given", async () => {
      const data = new Uint8Array(randomBytes(4096));
      data[0] = 0;
      data[1] = 255;
      const key = await store.put(data);
      expect(Buffer.from((await store.get(key))!)).toEqual(Buffer.from(data));
    });

    it("stores empty data", async () => {
      const key = await store.put(new Uint8Array(0));
      expect((await store.get(key))?.byteLength).toBe(0);
    });

    it("answers null for an unknown key", async () => {
      expect(await store.get("00000000-0000-4000-8000-000000000000.png")).toBeNull();
    });

    it("gives every put its own key, keeping the extension", async () => {
      const data = new Uint8Array([1, 2, 3]);
      const first = await store.put(data, { extension: ".png", contentType: "image/png" });
      const second = await store.put(data, { extension: ".png", contentType: "image/png" });
      expect(first).not.toBe(second);
      expect(first.endsWith(".png")).toBe(true);
      expect(Buffer.from((await store.get(second))!)).toEqual(Buffer.from(data));
    });

    it("deletes keys and ignores unknown ones", async () => {
      const kept = await store.put(new Uint8Array([1]));
      const removed = await store.put(new Uint8Array([2]));
      await store.delete([removed, "00000000-0000-4000-8000-000000000001.bin"]);
      expect(await store.get(removed)).toBeNull();
      expect(Buffer.from((await store.get(kept))!)).toEqual(Buffer.from([1]));
    });

    it("gives a URL the bytes can be read from", async () => {
      const data = new Uint8Array(randomBytes(512));
      const key = await store.put(data, { extension: "mp3", contentType: "audio/mpeg" });
      expect(Buffer.from(await readUrl(await store.getUrl(key)))).toEqual(Buffer.from(data));
    });

    for (const key of ESCAPING_KEYS) {
      // Titled as it.each titled it with %j (the key as JSON), so test names stay the same.
      it(`rejects the key ${JSON.stringify(key)}, which could leave the store`, async () => {
        for (const task of [() => store.get(key), () => store.getUrl(key), () => store.delete([key])]) {
          expect(ValidationError.isInstance(await thrown(task))).toBe(true);
        }
      });
    }
  });
}
