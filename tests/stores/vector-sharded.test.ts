/**
 * The index spread over shards: the VectorIndex contract (usearch shards, each in its thread), where a saved
 * index's entries are complete after a crash that saved one shard and not another, the shard count kept by the
 * folder, and the usearch kind's `shards` option.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { DimensionMismatchError, StoreError, ValidationError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { FlatIndex } from "../../src/stores/vector/flat.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { ShardedIndex } from "../../src/stores/vector/sharded-index.js";
import { USEARCH_IDS } from "../../src/stores/vector/usearch-index.js";
import { randomUnitVector, seededRandom, testVectorIndex, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";
import type { VectorIndex } from "../../src/core/contracts/vector-index.js";

testVectorIndex({
  name: "usearch in 2 shards (f32, memory)",
  create: ({ dimension }) => createVectorIndex("usearch", { dimension, quantization: "f32", shards: 2 }),
});

testVectorIndex({
  name: "usearch in 3 shards (i8, saved to a folder)",
  create: ({ dir, dimension }) => createVectorIndex("usearch", { dimension, path: join(dir, "usearch"), shards: 3 }),
  persistent: true,
  distanceDigits: 1,
});

/** A sharded index over flat shards, which it hands out to the test as it makes them. */
function flatShards(count: number, dimension = 8): { index: ShardedIndex; shards: VectorIndex[] } {
  const shards: VectorIndex[] = [];
  const index = new ShardedIndex({
    kind: "flat",
    shards: count,
    dimension,
    ids: USEARCH_IDS,
    makeShard: () => {
      const shard = new FlatIndex({ dimension });
      shards.push(shard);
      return shard;
    },
  });
  return { index, shards };
}

describe("ShardedIndex", () => {
  const random = seededRandom(43);
  const temp = tempDirEachTest("semcache-sharded-");

  it("spreads ids over the shards by id, and merges every shard's hits nearest first", async () => {
    const { index, shards } = flatShards(3);
    await index.init();
    const stored = Array.from({ length: 30 }, () => randomUnitVector(8, random));
    await index.add(stored.map((vector, i) => ({ id: i + 1, vector })));
    expect(await Promise.all(shards.map((shard) => shard.count()))).toEqual([10, 10, 10]);
    expect(await Promise.all(shards.map((shard) => shard.lastId!()))).toEqual([30, 28, 29]);
    const hits = await index.search(stored[4], 30);
    expect(hits).toHaveLength(30);
    expect(hits[0]).toEqual({ id: 5, distance: expect.closeTo(0, 5) });
    expect(hits.map((hit) => hit.distance)).toEqual([...hits.map((hit) => hit.distance)].sort((a, b) => a - b));
    await index.delete([5, 6, -1, 1.5]);
    expect(await index.count()).toBe(28);
    expect((await index.search(stored[4], 30)).map((hit) => hit.id)).not.toContain(5);
    await index.close();
  });

  it("takes up, after a crash that saved one shard further than another, where every shard is complete", async () => {
    const { index, shards } = flatShards(2);
    // Shard 1 (odd ids) saved up to 11, shard 0 (even ids) up to 20: 13-19 are missing from shard 1.
    for (const shard of shards) await shard.init();
    await shards[0].add(Array.from({ length: 10 }, (_, i) => ({ id: 2 * (i + 1), vector: randomUnitVector(8, random) })));
    await shards[1].add(Array.from({ length: 6 }, (_, i) => ({ id: 2 * i + 1, vector: randomUnitVector(8, random) })));
    await index.init();
    // The data manager adds the stored rows after 12 again: 13, 15, 17 and 19 come back, 14-20 are replaced.
    expect(await index.lastId()).toBe(12);
    await index.add([{ id: 21, vector: randomUnitVector(8, random) }]);
    expect(await index.lastId()).toBe(21);
    await index.clear();
    expect(await index.lastId()).toBe(0);
    await index.close();
  });

  it("takes up from the start of a shard that holds nothing (its first id may be the lowest of all)", async () => {
    const { index, shards } = flatShards(2);
    // Shard 1 (odd ids) lost, shard 0 saved up to 10: id 1 is missing.
    await shards[0].init();
    await shards[0].add([2, 4, 6, 8, 10].map((id) => ({ id, vector: randomUnitVector(8, random) })));
    await index.init();
    expect(await index.lastId()).toBe(0);
    await index.close();
    const third = flatShards(3);
    await third.shards[1].init();
    await third.shards[1].add([{ id: 4, vector: randomUnitVector(8, random) }]);
    // Shard 0's first id is 3, shard 2's is 2: complete up to 1.
    await third.index.init();
    expect(await third.index.lastId()).toBe(1);
    await third.index.close();
  });

  it("reports the highest id of shards saved alike: 30 for 1-30 in two shards (29 and 30)", async () => {
    const { index, shards } = flatShards(2);
    for (const shard of shards) await shard.init();
    await shards[0].add([{ id: 30, vector: randomUnitVector(8, random) }]);
    await shards[1].add([{ id: 29, vector: randomUnitVector(8, random) }]);
    await index.init();
    expect(await index.lastId()).toBe(30);
    await index.close();
  });

  it("checks an add before any shard sees it: one length across shards, valid ids", async () => {
    expect(() => flatShards(1)).toThrow(/a sharded index needs two shards or more, got 1/);
    const { index, shards } = flatShards(2, 0);
    await index.init();
    await index.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    // Id 2 belongs to shard 0, which holds nothing yet.
    await expect(index.add([{ id: 2, vector: randomUnitVector(16, random) }])).rejects.toThrow(DimensionMismatchError);
    await expect(index.search(randomUnitVector(16, random), 1)).rejects.toThrow(DimensionMismatchError);
    await expect(index.add([{ id: -3, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    expect(await shards[0].count()).toBe(0);
    expect(index.dimension).toBe(8);
    await index.close();
  });

  it("keeps the shard count a folder was saved with, and an unsharded folder unsharded", async () => {
    const path = join(temp.path, "usearch");
    const sharded = createVectorIndex("usearch", { dimension: 8, path, shards: 2 });
    await sharded.init();
    await sharded.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    await sharded.close();
    const other = createVectorIndex("usearch", { dimension: 8, path, shards: 3 });
    await expect(other.init()).rejects.toThrow(StoreError);
    await expect(other.init()).rejects.toThrow(/holds a usearch index saved in 2 shards, not in 3: open it as usearch with shards: 2, or remove the folder/);
    await expect(createVectorIndex("usearch", { dimension: 8, path }).init()).rejects.toThrow(/saved in 2 shards: open it as usearch with shards: 2/);
    await expect(createVectorIndex("usearch", { dimension: 8, path, thread: true }).init()).rejects.toThrow(/saved in 2 shards/);
    await expect(createVectorIndex("hnswlib", { dimension: 8, path }).init()).rejects.toThrow(/holds a usearch index saved in 2 shards/);

    const plain = join(temp.path, "plain");
    const unsharded = createVectorIndex("usearch", { dimension: 8, path: plain });
    await unsharded.init();
    await unsharded.add([{ id: 1, vector: randomUnitVector(8, random) }]);
    await unsharded.close();
    await expect(createVectorIndex("usearch", { dimension: 8, path: plain, shards: 2 }).init()).rejects.toThrow(
      /holds an index saved unsharded, not in 2 shards: leave shards out \(or give 1\)/,
    );
  });

  it("counts only shards that were saved, and holds its folder against an unsharded index", async () => {
    const path = join(temp.path, "usearch");
    // Opened in 3 shards and closed with nothing added: no shard saved, so the folder takes another count.
    const empty = createVectorIndex("usearch", { dimension: 8, path, shards: 3 });
    await empty.init();
    await empty.close();
    const two = createVectorIndex("usearch", { dimension: 8, path, shards: 2 });
    await two.init();
    await expect(createVectorIndex("usearch", { dimension: 8, path }).init()).rejects.toThrow(/is in use by another cache/);
    await two.close();
    const file = join(temp.path, "a-file");
    await writeFile(file, "");
    await expect(createVectorIndex("usearch", { dimension: 8, path: file, shards: 2 }).init()).rejects.toThrow(StoreError);
  });

  it("refuses calls after a close that failed, until close() is called again", async () => {
    let failing = true;
    const { index, shards } = flatShards(2);
    await index.init();
    await index.add([1, 2].map((id) => ({ id, vector: randomUnitVector(8, random) })));
    const close = shards[1].close.bind(shards[1]);
    shards[1].close = () => (failing ? Promise.reject(new StoreError("flat", "disk full")) : close());
    await expect(index.close()).rejects.toThrow(/disk full/);
    await expect(index.count()).rejects.toThrow(/half closed \(flat: disk full\): call close\(\) again/);
    failing = false;
    await index.close();
    await expect(index.count()).rejects.toThrow(/the index is closed/);
  });

  it("releases every shard's folder when one cannot open, and opens on the next init", async () => {
    const path = join(temp.path, "usearch");
    const holder = createVectorIndex("usearch", { dimension: 8, path: join(path, "shard-2-of-2") });
    await holder.init();
    const index = createVectorIndex("usearch", { dimension: 8, path, shards: 2 });
    await expect(index.init()).rejects.toThrow(/shard-2-of-2 is in use by another cache/);
    await holder.close();
    await index.init();
    await index.add([{ id: 4, vector: randomUnitVector(8, random) }]);
    expect(await index.count()).toBe(1);
    await index.close();
  });

  it("is the usearch kind's `shards` option (YAML shards: 2), refused with thread: false and by other kinds", async () => {
    const config = loadGptCacheConfig("storage_config:\n  manager: sqlite,usearch\n  vector_params:\n    shards: 2\n");
    expect(config.storage?.vectorParams).toEqual({ shards: 2 });
    expect(createVectorIndex("usearch", { dimension: 8, shards: 2 })).toBeInstanceOf(ShardedIndex);
    expect(() => createVectorIndex("usearch", { dimension: 8, shards: 2, thread: false })).toThrow(/shards run each in a thread of its own/);
    expect(() => createVectorIndex("usearch", { dimension: 8, shards: 0 })).toThrow(ValidationError);
    expect(() => createVectorIndex("usearch", { dimension: 8, shards: 65 })).toThrow(/shards/);
    expect(() => createVectorIndex("hnswlib", { dimension: 8, shards: 2 })).toThrow(/shards is a usearch option/);

    const stored = Array.from({ length: 20 }, () => randomUnitVector(32, random));
    const near = vectorAtCosine(stored[7], 0.95, random);
    const first = managerFactory("sqlite,usearch", { dataDir: temp.path, vectorParams: config.storage!.vectorParams });
    await first.init();
    const ids = await first.save(stored.map((embedding, i) => ({ question: `q${i}`, keyHash: `k${i}`, partition: "", answer: `a${i}`, embedding })));
    expect((await first.getScalarData((await first.search(near, 1))[0].id))?.answer).toBe("a7");
    await first.close();
    const second = managerFactory("sqlite,usearch", { dataDir: temp.path, vectorParams: { shards: 2 } });
    await second.init();
    const [hit] = await second.search(near, 1);
    expect(hit.id).toBe(ids[7]);
    await second.close();
  });
});
