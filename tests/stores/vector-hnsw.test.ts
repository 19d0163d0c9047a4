import { cp, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DimensionMismatchError, StoreError, ValidationError } from "../../src/core/errors.js";
import { HnswIndex } from "../../src/stores/vector/hnsw.js";
import { randomUnitVector, seededRandom, testVectorIndex } from "../../src/testing/vector-index-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

testVectorIndex({
  name: "HnswIndex (memory)",
  create: ({ dimension }) => new HnswIndex({ dimension }),
});

testVectorIndex({
  name: "HnswIndex (saved to a folder)",
  create: ({ dir, dimension }) => new HnswIndex({ dimension, path: join(dir, "hnsw"), initialCapacity: 16 }),
  persistent: true,
});

describe("HnswIndex", () => {
  const random = seededRandom(11);
  const temp = tempDirEachTest("semcache-hnsw-");

  function batch(count: number, firstId: number, dimension = 8): Array<{ id: number; vector: Float32Array }> {
    return Array.from({ length: count }, (_, i) => ({ id: firstId + i, vector: randomUnitVector(dimension, random) }));
  }

  it("grows past its initial capacity", async () => {
    const index = new HnswIndex({ dimension: 8, initialCapacity: 4 });
    await index.init();
    const items = batch(50, 1);
    for (const item of items) await index.add([item]);
    expect(await index.count()).toBe(50);
    for (const item of items) expect((await index.search(item.vector, 1))[0].id).toBe(item.id);
  });

  it("reuses the slots of deleted vectors for new ids instead of growing", async () => {
    const index = new HnswIndex({ dimension: 8, initialCapacity: 8 });
    await index.init();
    await index.add(batch(8, 1));
    await index.delete([1, 2, 3, 4, 5, 6, 7, 8]);
    const fresh = batch(8, 9);
    await index.add(fresh);
    expect(await index.count()).toBe(8);
    const hits = await index.search(fresh[0].vector, 8);
    expect(hits.map((hit) => hit.id).sort((a, b) => a - b)).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    // An id whose slot went to another id can still come back.
    await index.add([{ id: 3, vector: fresh[0].vector }]);
    expect(await index.count()).toBe(9);
    expect((await index.search(fresh[0].vector, 2)).map((hit) => hit.id).sort((a, b) => a - b)).toEqual([3, 9]);
  });

  it("takes its dimension from the first add when given 0", async () => {
    const index = new HnswIndex({ dimension: 0 });
    await index.init();
    expect(await index.search(randomUnitVector(5, random), 3)).toEqual([]);
    await index.add(batch(3, 1, 12));
    expect(index.dimension).toBe(12);
    await expect(index.add(batch(1, 9, 8))).rejects.toThrow(DimensionMismatchError);
  });

  it("keeps what was flushed, and loses nothing it had saved when changes after the flush are lost", async () => {
    const path = join(temp.path, "index");
    const first = new HnswIndex({ dimension: 8, path });
    await first.init();
    const saved = batch(20, 1);
    await first.add(saved);
    await first.flush();
    await first.add(batch(5, 21));
    // The process dies here, no flush, no close: its folder as it is then (the copied lock names a process
    // that no longer holds it, so it is taken over).
    const crashed = join(temp.path, "crashed");
    await cp(path, crashed, { recursive: true });

    const second = new HnswIndex({ dimension: 8, path: crashed });
    await second.init();
    expect(await second.count()).toBe(20);
    expect(await second.lastId()).toBe(20);
    expect((await second.search(saved[4].vector, 1))[0].id).toBe(5);
  });

  it("leaves the previous save usable when a save is interrupted", async () => {
    const path = join(temp.path, "index");
    const index = new HnswIndex({ dimension: 8, path });
    await index.init();
    await index.add(batch(10, 1));
    await index.close();
    // What a crash mid-save leaves: next generation's data half written, a temporary manifest.
    await writeFile(join(path, "data-2"), "garbage");
    await writeFile(join(path, "manifest.json.tmp"), "{");

    const reopened = new HnswIndex({ dimension: 8, path });
    await reopened.init();
    expect(await reopened.count()).toBe(10);
    await reopened.add(batch(1, 11));
    await reopened.close();
    expect((await readdir(path)).sort()).toEqual(["data-2", "manifest.json"]);
    const last = new HnswIndex({ dimension: 8, path });
    await last.init();
    expect(await last.count()).toBe(11);
  });

  it("catches up from lastId: ids above it are the ones to re-add", async () => {
    const path = join(temp.path, "index");
    const index = new HnswIndex({ dimension: 8, path });
    await index.init();
    await index.add(batch(30, 1));
    await index.delete([30]);
    await index.close();
    const reopened = new HnswIndex({ dimension: 8, path });
    await reopened.init();
    expect(await reopened.lastId()).toBe(30);
    const missing = batch(3, 31);
    await reopened.add(missing);
    expect(await reopened.lastId()).toBe(33);
    expect(await reopened.count()).toBe(32);
    expect((await reopened.search(missing[2].vector, 1))[0].id).toBe(33);
  });

  it("takes the dimension of a saved index when given 0", async () => {
    const path = join(temp.path, "index");
    const index = new HnswIndex({ dimension: 16, path });
    await index.init();
    await index.add(batch(2, 1, 16));
    await index.close();
    const reopened = new HnswIndex({ dimension: 0, path });
    await reopened.init();
    expect(reopened.dimension).toBe(16);
    expect(await reopened.count()).toBe(2);
  });

  it("validates its options and ids", async () => {
    expect(() => new HnswIndex({ dimension: -1 })).toThrow(ValidationError);
    expect(() => new HnswIndex({ dimension: 8, M: 1 })).toThrow(ValidationError);
    expect(() => new HnswIndex({ dimension: 8, ef: 0 })).toThrow(ValidationError);
    const index = new HnswIndex({ dimension: 8 });
    await expect(index.search(randomUnitVector(8, random), 1)).rejects.toThrow(StoreError);
    await index.init();
    await expect(index.add([{ id: -1, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    await expect(index.add([{ id: 2 ** 32, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    await index.close();
    await expect(index.count()).rejects.toThrow(StoreError);
  });
});
