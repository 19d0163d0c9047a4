import { readFileSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { DimensionMismatchError, MissingDependencyError, StoreError, ValidationError } from "../../src/core/errors.js";
import { nativeLoadError } from "../../src/core/optional-import.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { HnswIndex } from "../../src/stores/vector/hnsw.js";
import { DEFAULT_USEARCH_CONNECTIVITY, DEFAULT_USEARCH_QUANTIZATION, UsearchIndex, type UsearchQuantization } from "../../src/stores/vector/usearch-index.js";
import { randomUnitVector, seededRandom, testVectorIndex, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

/** Decimal places each storage keeps of a cosine distance between 8-d unit vectors (see the contract's option). */
const DIGITS: Record<UsearchQuantization, number> = { f32: 4, f16: 3, i8: 1 };

for (const quantization of ["f32", "f16", "i8"] as const) {
  testVectorIndex({
    name: `UsearchIndex (${quantization}, memory)`,
    create: ({ dimension }) => new UsearchIndex({ dimension, quantization }),
    distanceDigits: DIGITS[quantization],
  });

  testVectorIndex({
    name: `UsearchIndex (${quantization}, saved to a folder)`,
    create: ({ dir, dimension }) => new UsearchIndex({ dimension, quantization, path: join(dir, "usearch") }),
    persistent: true,
    distanceDigits: DIGITS[quantization],
  });
}

testVectorIndex({
  name: "UsearchIndex (reopened memory-mapped)",
  create: ({ dir, dimension }) => new UsearchIndex({ dimension, path: join(dir, "usearch") }),
  reopen: ({ dir, dimension }) => new UsearchIndex({ dimension, path: join(dir, "usearch"), view: true }),
  persistent: true,
  distanceDigits: DIGITS[DEFAULT_USEARCH_QUANTIZATION],
});

describe("UsearchIndex", () => {
  const random = seededRandom(23);
  const temp = tempDirEachTest("semcache-usearch-");

  function batch(count: number, firstId: number, dimension = 16): Array<{ id: number; vector: Float32Array }> {
    return Array.from({ length: count }, (_, i) => ({ id: firstId + i, vector: randomUnitVector(dimension, random) }));
  }

  async function opened(options: ConstructorParameters<typeof UsearchIndex>[0]): Promise<UsearchIndex> {
    const index = new UsearchIndex(options);
    await index.init();
    return index;
  }

  it("leaves no entry out of reach of its own vector, build after build (usearch's concurrent inserts did)", async () => {
    // Two threads left ~1 entry in 1,000 unreachable in most builds (unum-cloud/USearch#735): 10 builds catch it.
    const unreachable: number[] = [];
    for (let build = 0; build < 10; build++) {
      const index = await opened({ dimension: 8 });
      const items = batch(2000, 1, 8);
      await index.add(items);
      for (const { id, vector } of items) if ((await index.search(vector, 1))[0]?.id !== id) unreachable.push(id);
      await index.close();
    }
    expect(unreachable).toEqual([]);
  });

  it("saves on flush and loads on init, with every vector, delete and lastId", async () => {
    const path = join(temp.path, "index");
    const first = await opened({ dimension: 16, path, quantization: "f16" });
    const items = batch(3000, 1);
    await first.add(items);
    await first.delete([7, 3000]);
    await first.flush();
    await first.close();
    expect((await readdir(path)).sort()).toEqual(["data-1", "manifest.json"]);

    const second = await opened({ dimension: 0, path });
    expect(second.dimension).toBe(16);
    expect(second.quantization).toBe("f16");
    expect(await second.count()).toBe(2998);
    expect(await second.lastId()).toBe(3000);
    expect((await second.search(items[41].vector, 1))[0].id).toBe(42);
    for (const gone of [7, 3000]) {
      expect((await second.search(items[gone - 1].vector, 50)).map((hit) => hit.id)).not.toContain(gone);
    }
    await second.close();
  });

  it("never returns a deleted id, and reuses its slot for new ids", async () => {
    const index = await opened({ dimension: 16 });
    const items = batch(500, 1);
    await index.add(items);
    const deleted = items.filter((item) => item.id % 5 === 0).map((item) => item.id);
    await index.delete(deleted);
    expect(await index.count()).toBe(400);
    for (const id of deleted.slice(0, 40)) {
      expect((await index.search(items[id - 1].vector, 10)).map((hit) => hit.id)).not.toContain(id);
    }
    await index.add(batch(100, 501));
    expect(await index.count()).toBe(500);
    await index.close();
  });

  it("answers from a memory-mapped file, and reads it into memory on the first change", async () => {
    const path = join(temp.path, "index");
    const first = await opened({ dimension: 16, path });
    const items = batch(200, 1);
    await first.add(items);
    await first.close();

    const viewed = await opened({ dimension: 16, path, view: true });
    expect(await viewed.count()).toBe(200);
    expect((await viewed.search(items[9].vector, 1))[0].id).toBe(10);
    await viewed.delete([10]);
    await viewed.add(batch(1, 201));
    expect(await viewed.count()).toBe(200);
    expect((await viewed.search(items[9].vector, 5)).map((hit) => hit.id)).not.toContain(10);
    await viewed.close();

    const again = await opened({ dimension: 16, path, view: true });
    expect(await again.count()).toBe(200);
    expect(await again.lastId()).toBe(201);
    await again.close();
  });

  it("keeps the last vector given for an id within one add", async () => {
    const index = await opened({ dimension: 16 });
    const [a, b] = batch(2, 1);
    await index.add([a, { id: 1, vector: b.vector }]);
    expect(await index.count()).toBe(1);
    expect((await index.search(b.vector, 1))[0]).toEqual({ id: 1, distance: expect.closeTo(0, 2) });
    await index.close();
  });

  it("reports cosine distances at 512-d to within 0.001 (f32, f16) or 0.015 (i8)", async () => {
    for (const quantization of ["f32", "f16", "i8"] as const) {
      const index = await opened({ dimension: 512, quantization });
      const base = randomUnitVector(512, random);
      const cosines = [0.95, 0.9, 0.8, 0.5];
      await index.add(cosines.map((cosine, i) => ({ id: i + 1, vector: vectorAtCosine(base, cosine, random) })));
      const hits = await index.search(base, 4);
      expect(hits.map((hit) => hit.id)).toEqual([1, 2, 3, 4]);
      hits.forEach((hit, i) => expect(Math.abs(hit.distance - (1 - cosines[i]))).toBeLessThan(quantization === "i8" ? 0.015 : 0.001));
      await index.close();
    }
  });

  it("validates its options, ids and dimensions", async () => {
    expect(() => new UsearchIndex({ dimension: 8, quantization: "f8" as UsearchQuantization })).toThrow(ValidationError);
    expect(() => new UsearchIndex({ dimension: 8, quantization: "f8" as UsearchQuantization })).toThrow(/quantization must be one of f32, f16, i8, got "f8"/);
    expect(() => new UsearchIndex({ dimension: -1 })).toThrow(ValidationError);
    expect(() => new UsearchIndex({ dimension: 8, connectivity: 1 })).toThrow(ValidationError);
    expect(() => new UsearchIndex({ dimension: 8, expansionSearch: 0 })).toThrow(ValidationError);
    const index = new UsearchIndex({ dimension: 8 });
    await expect(index.search(randomUnitVector(8, random), 1)).rejects.toThrow(StoreError);
    await index.init();
    await expect(index.add([{ id: -1, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    await expect(index.add([{ id: 1.5, vector: randomUnitVector(8, random) }])).rejects.toThrow(ValidationError);
    await expect(index.add([{ id: 1, vector: randomUnitVector(9, random) }])).rejects.toThrow(DimensionMismatchError);
    await index.close();
    await expect(index.count()).rejects.toThrow(StoreError);
  });

  it("refuses to reopen a saved index at another quantization, and keeps the saved one when none is asked", async () => {
    const path = join(temp.path, "index");
    const first = await opened({ dimension: 16, path, quantization: "f32" });
    await first.add(batch(3, 1));
    await first.close();
    await expect(opened({ dimension: 16, path, quantization: "i8" })).rejects.toThrow(/stores f32 vectors, quantization asks for i8/);
    const kept = await opened({ dimension: 16, path });
    expect(kept.quantization).toBe("f32");
    await kept.close();
  });

  it("keeps a saved index's connectivity (an index built at 16, the old default, stays 16) and refuses another one asked for", async () => {
    const path = join(temp.path, "index");
    const first = await opened({ dimension: 16, path, connectivity: 16 });
    await first.add(batch(3, 1));
    await first.close();
    const kept = await opened({ dimension: 16, path });
    expect(kept.connectivity).toBe(16);
    await kept.add(batch(40, 4));
    expect(await kept.count()).toBe(43);
    await kept.close();
    await expect(opened({ dimension: 16, path, connectivity: 24 })).rejects.toThrow(/links each entry to 16 others, connectivity asks for 24/);
    const reopened = await opened({ dimension: 16, path, connectivity: 16 });
    expect(reopened.connectivity).toBe(16);
    await reopened.close();
    // Manifests written before 2026-11-27 recorded the option, not the graph's: the file's own value wins.
    const manifestPath = join(path, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { meta: { connectivity: number } };
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, meta: { ...manifest.meta, connectivity: 32 } }));
    const misrecorded = await opened({ dimension: 16, path });
    expect(misrecorded.connectivity).toBe(16);
    await misrecorded.close();
    await expect(opened({ dimension: 16, path, connectivity: 32 })).rejects.toThrow(/links each entry to 16 others, connectivity asks for 32/);
    const fresh = await opened({ dimension: 16 });
    expect(fresh.connectivity).toBe(DEFAULT_USEARCH_CONNECTIVITY);
    await fresh.close();
  });

  it("refuses a folder holding an hnswlib index (and hnswlib refuses usearch's), saying what to do", async () => {
    const hnswPath = join(temp.path, "hnsw");
    const hnsw = new HnswIndex({ dimension: 16, path: hnswPath });
    await hnsw.init();
    await hnsw.add(batch(3, 1));
    await hnsw.close();
    await expect(opened({ dimension: 16, path: hnswPath })).rejects.toThrow(
      `usearch: ${hnswPath} holds a saved index of another kind, not usearch's: give this index a folder of its own, or remove that one`,
    );
    const usearchPath = join(temp.path, "usearch");
    const own = await opened({ dimension: 16, path: usearchPath });
    await own.add(batch(3, 1));
    await own.close();
    await expect(new HnswIndex({ dimension: 16, path: usearchPath }).init()).rejects.toThrow(/holds a saved index of another kind, not hnswlib's/);
  });

  it("says how to build usearch when its native binding is missing", () => {
    const loadError = new Error("No native build was found for platform=linux arch=x64 runtime=node abi=115 uv=1 libc=glibc node=20.0.0");
    const error = nativeLoadError(loadError, "usearch", "The usearch vector index");
    expect(MissingDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "binding", packageName: "usearch" });
  });

  it('is the "usearch" kind; LangChain\'s USearch store is "langchain-usearch"', async () => {
    const native = createVectorIndex("usearch", { dimension: 8, path: join(temp.path, "u"), quantization: "f16", ef: 300 });
    expect(native).toBeInstanceOf(UsearchIndex);
    expect((native as UsearchIndex).quantization).toBe("f16");
    expect((native as UsearchIndex).expansionSearch).toBe(300);
    expect(native.capabilities.persistent).toBe(true);
    expect(createVectorIndex("langchain-usearch", { dimension: 8 }).kind).toBe("langchain-usearch");
    expect((createVectorIndex("usearch", { dimension: 8, M: 24, connectivity: 24 }) as UsearchIndex).connectivity).toBe(24);
    expect(() => createVectorIndex("usearch", { dimension: 8, M: 16, connectivity: 32 })).toThrow("usearch: connectivity (32) and M (16) name the same setting: give one of them.");
    expect(() => createVectorIndex("usearch", { dimension: 8, ef: 64, expansionSearch: 256 })).toThrow(/expansionSearch \(256\) and ef \(64\)/);
  });

  it("reads GPTCache's usearch vector_params (dtype is the quantization)", () => {
    const yaml = "storage_config:\n  manager: sqlite,usearch\n  vector_params:\n    dtype: f16\n    connectivity: 32\n    expansion_search: 200\n    index_path: ./u\n";
    expect(loadGptCacheConfig(yaml).storage?.vectorParams).toMatchObject({ quantization: "f16", connectivity: 32, expansionSearch: 200, path: "./u" });
    expect(() => loadGptCacheConfig(yaml.replace("dtype: f16", "metric: ip"))).toThrow(/metric does not apply to the usearch vector store/);
  });

  it("as the default kind, takes the vector_params GPTCache's hnswlib did: m, ef_construction and ef tune it, max_elements is noted unused", () => {
    const config = loadGptCacheConfig("storage_config:\n  vector_params:\n    m: 8\n    ef_construction: 64\n    ef: 32\n    max_elements: 5000\n");
    expect(config.storage?.manager).toBeUndefined();
    expect(config.storage?.vectorParams).toEqual({ M: 8, efConstruction: 64, ef: 32 });
    expect(config.notes).toContainEqual(expect.stringMatching(/^storage_config\.vector_params\.max_elements \(5000\) is not used: the usearch index grows/));
    const index = createVectorIndex("usearch", { dimension: 8, ...config.storage!.vectorParams }) as unknown as Record<string, unknown>;
    expect(index).toMatchObject({ connectivity: 8, expansionAdd: 64, expansionSearch: 32 });
  });

  it('serves a cache end to end: managerFactory("sqlite,usearch") finds a stored vector after a restart', async () => {
    const stored = Array.from({ length: 20 }, () => randomUnitVector(32, random));
    const first = managerFactory("sqlite,usearch", { dataDir: temp.path });
    await first.init();
    const ids = await first.save(stored.map((embedding, i) => ({ question: `q${i}`, keyHash: `k${i}`, partition: "", answer: `a${i}`, embedding })));
    const near = vectorAtCosine(stored[7], 0.95, random);
    expect((await first.getScalarData((await first.search(near, 1))[0].id))?.answer).toBe("a7");
    await first.close();
    expect(await readdir(join(temp.path, "usearch"))).toContain("manifest.json");

    const second = managerFactory("sqlite,usearch", { dataDir: temp.path });
    await second.init();
    const [hit] = await second.search(near, 1);
    expect(hit.id).toBe(ids[7]);
    expect(hit.distance).toBeCloseTo(0.05, 2);
    await second.close();
  });
});
