/** LanceDB embedded for real (a folder per test), through LangChain's LanceDB class searching by cosine distance. */
import { join } from "node:path";
import { connect } from "@lancedb/lancedb";
import { DimensionMismatchError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { DatabaseVectorIndex } from "../../src/stores/vector/database-index.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "../../src/testing/vector-index-contract.js";
import { tempDir } from "../helpers/fixtures.js";
import { testDatabaseKind } from "../helpers/vector-database.js";

testDatabaseKind({ name: "lancedb (embedded)", kind: "lancedb", params: ({ dir }) => ({ uri: join(dir, "lance") }) });

describe("lancedb", () => {
  const random = seededRandom(21);
  let dir: ReturnType<typeof tempDir>;

  beforeEach(() => {
    dir = tempDir();
  });

  afterEach(() => dir.cleanup());

  it("lives in dataDir/lancedb by default and is shared by two replicas opening the same folder", async () => {
    const one = managerFactory("sqlite,lancedb", { dataDir: dir.path, vectorParams: { dimension: 8 } });
    const two = managerFactory("sqlite,lancedb", { dataDir: dir.path });
    await one.init();
    await two.init();
    expect((one.vector as DatabaseVectorIndex).location).toContain(join(dir.path, "lancedb"));
    const target = randomUnitVector(8, random);
    await one.vector!.add([{ id: 4, vector: target }]);
    expect(await two.vector!.search(target, 1)).toEqual([{ id: 4, distance: expect.closeTo(0, 4) }]);
    await two.vector!.delete([4]);
    expect(await one.vector!.count()).toBe(0);
    await Promise.all([one.close(), two.close()]);
  });

  it("keeps answering correctly across its periodic compaction", async () => {
    const uri = join(dir.path, "lance");
    const index = createVectorIndex("lancedb", { uri, dimension: 8, optimizeEvery: 3 });
    await index.init();
    const vectors = Array.from({ length: 12 }, () => randomUnitVector(8, random));
    for (let i = 0; i < vectors.length; i++) await index.add([{ id: i + 1, vector: vectors[i] }]);
    await index.delete([2, 3]);
    expect(await index.count()).toBe(10);
    const query = vectorAtCosine(vectors[5], 0.9, random);
    expect((await index.search(query, 1))[0]).toEqual({ id: 6, distance: expect.closeTo(0.1, 4) });
    const table = await (await connect(uri)).openTable("semcache_vectors");
    // 12 adds + 1 delete on an empty table: without compaction every write would be its own fragment.
    expect((await table.stats()).fragmentStats.numFragments).toBeLessThan(4);
    table.close();
    await index.close();
  });

  it("builds an HNSW index in the background once the table is large, and still finds near duplicates", async () => {
    const uri = join(dir.path, "lance");
    const index = createVectorIndex("lancedb", { uri, dimension: 16, indexAfter: 300 });
    await index.init();
    const vectors = Array.from({ length: 600 }, () => randomUnitVector(16, random));
    await index.add(vectors.map((vector, i) => ({ id: i + 1, vector })));
    await index.flush();
    const table = await (await connect(uri)).openTable("semcache_vectors");
    expect((await table.listIndices()).map((described) => described.columns)).toContainEqual(["vector"]);
    table.close();
    let found = 0;
    for (let q = 0; q < 50; q++) {
      const target = Math.floor(random() * vectors.length);
      const query = vectorAtCosine(vectors[target], 0.95, random);
      const [hit] = await index.search(query, 1);
      if (hit?.id !== target + 1) continue;
      found++;
      // Exact distances, not the index's quantised ones: a similarity threshold depends on them.
      expect(hit.distance).toBeCloseTo(0.05, 4);
    }
    expect(found).toBeGreaterThanOrEqual(49);
    await index.close();
  });

  it("refuses to open a table of another dimension", async () => {
    const uri = join(dir.path, "lance");
    const index = createVectorIndex("lancedb", { uri, dimension: 8 });
    await index.init();
    await index.close();
    const other = createVectorIndex("lancedb", { uri, dimension: 16 });
    const error = await other.init().catch((e: unknown) => e);
    expect(DimensionMismatchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/lancedb index at .*semcache_vectors holds 8-d vectors, got a 16-d/);
  });
});
