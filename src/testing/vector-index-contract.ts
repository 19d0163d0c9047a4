/**
 * The VectorIndex contract suite users run against their own index. Over 300 lines: one function registers every
 * behaviour of the contract, each a short test; a reader checks an index against it in one place.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DimensionMismatchError } from "../core/errors.js";
import { cosineSimilarity } from "../core/vector-math.js";
import type { VectorIndex } from "../core/contracts/vector-index.js";
import { randomUnitVector, seededRandom, vectorAtCosine } from "./random-vectors.js";
import { resolveRunner, type TestRunner } from "./runner.js";

/** Where and at what dimension the suite wants an index. */
export interface VectorIndexContext {
  /** A fresh temporary folder for this test (removed afterwards); persistent indexes keep their files here. */
  dir: string;
  dimension: number;
}

export interface VectorIndexContractOptions {
  name: string;
  /** A new index over `context.dir` (not yet initialised). */
  create: (context: VectorIndexContext) => VectorIndex | Promise<VectorIndex>;
  /** The same index opened again after close(); default `create`. */
  reopen?: (context: VectorIndexContext) => VectorIndex | Promise<VectorIndex>;
  /**
   * The index keeps its entries across restarts (its capabilities.persistent must say the same). Only then do
   * the close-and-reopen tests run; otherwise they are reported as skipped.
   */
  persistent?: boolean;
  /** Share of recall queries whose stored vector must come back first. Default 0.99; approximate indexes may declare less. */
  minRecall?: number;
  /**
   * Decimal places to which reported distances must match exact cosine distances (toBeCloseTo's digits). Default 4;
   * indexes that store quantised vectors (16 or 8 bits per dimension) may declare fewer.
   */
  distanceDigits?: number;
  /** The test runner's functions; default its globals (see TestRunner). */
  runner?: TestRunner;
}

// Kept importable from here, where tests have always found them.
export { randomUnitVector, seededRandom, vectorAtCosine } from "./random-vectors.js";

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const DIM = 8;

/**
 * Registers the behaviours every VectorIndex must have (distances are cosine distances, deletes hide,
 * persistence across close + reopen for indexes declared persistent).
 */
export function testVectorIndex(options: VectorIndexContractOptions): void {
  const { describe, it, expect, beforeEach, afterEach } = resolveRunner(options.runner);
  const minRecall = options.minRecall ?? 0.99;
  const digits = options.distanceDigits ?? 4;
  const persistent = options.persistent ?? false;
  const itPersistent = persistent ? it : it.skip;

  describe(`VectorIndex contract: ${options.name}`, () => {
    let dir: string;
    let opened: VectorIndex[];
    const random = seededRandom(7);

    async function open(dimension = DIM, how = options.create): Promise<VectorIndex> {
      const index = await how({ dir, dimension });
      opened.push(index);
      await index.init();
      return index;
    }

    async function reopen(index: VectorIndex, dimension = DIM): Promise<VectorIndex> {
      await index.flush();
      await index.close();
      return open(dimension, options.reopen ?? options.create);
    }

    function vectors(count: number, dimension = DIM): Float32Array[] {
      return Array.from({ length: count }, () => randomUnitVector(dimension, random));
    }

    function items(list: Float32Array[], firstId = 1): Array<{ id: number; vector: Float32Array }> {
      return list.map((vector, i) => ({ id: firstId + i, vector }));
    }

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "semcache-vector-contract-"));
      opened = [];
    });

    afterEach(async () => {
      for (const index of opened) await index.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });

    it(`describes itself (persistent: ${persistent})`, async () => {
      const index = await open();
      expect(typeof index.kind).toBe("string");
      expect(index.kind.length).toBeGreaterThan(0);
      expect(index.capabilities.persistent).toBe(persistent);
      expect(typeof index.capabilities.shared).toBe("boolean");
    });

    it("init is idempotent and an empty index finds nothing", async () => {
      const index = await open();
      await index.init();
      expect(await index.search(vectors(1)[0], 5)).toEqual([]);
      expect(await index.count()).toBe(0);
    });

    it("finds an added vector first, at distance ~0", async () => {
      const index = await open();
      const list = vectors(10);
      await index.add(items(list));
      const hits = await index.search(list[3], 3);
      expect(hits[0].id).toBe(4);
      expect(hits[0].distance).toBeCloseTo(0, 4);
    });

    it("reports cosine distances (1 - cosine similarity)", async () => {
      const index = await open();
      const base = randomUnitVector(DIM, random);
      const near = vectorAtCosine(base, 0.6, random);
      const far = vectorAtCosine(base, -0.5, random);
      await index.add([
        { id: 1, vector: near },
        { id: 2, vector: far },
      ]);
      const hits = await index.search(base, 2);
      expect(hits.map((hit) => hit.id)).toEqual([1, 2]);
      expect(hits[0].distance).toBeCloseTo(1 - cosineSimilarity(base, near), Math.min(3, digits));
      expect(hits[0].distance).toBeCloseTo(0.4, Math.min(3, digits));
      expect(hits[1].distance).toBeCloseTo(1.5, Math.min(3, digits));
    });

    it("returns the topK nearest, nearest first", async () => {
      const index = await open();
      const list = vectors(40);
      await index.add(items(list));
      const query = randomUnitVector(DIM, random);
      const hits = await index.search(query, 5);
      expect(hits).toHaveLength(5);
      const trueDistance = new Map(list.map((vector, i) => [i + 1, 1 - cosineSimilarity(query, vector)]));
      const fifth = [...trueDistance.values()].sort((a, b) => a - b)[4];
      // An index that stores rounded vectors (f16, i8) may swap neighbours whose distances differ by less than its
      // rounding (distanceDigits): each hit must be among the five nearest up to that, and report its own distance.
      const rounding = 10 ** -digits;
      expect(new Set(hits.map((hit) => hit.id)).size).toBe(5);
      for (const hit of hits) {
        expect(trueDistance.get(hit.id)).toBeLessThanOrEqual(fifth + rounding);
        expect(hit.distance).toBeCloseTo(trueDistance.get(hit.id)!, digits);
      }
      for (let i = 1; i < hits.length; i++) expect(hits[i].distance).toBeGreaterThanOrEqual(hits[i - 1].distance);
    });

    it("returns every vector when topK exceeds the count", async () => {
      const index = await open();
      await index.add(items(vectors(3)));
      const hits = await index.search(vectors(1)[0], 10);
      expect(hits.map((hit) => hit.id).sort()).toEqual([1, 2, 3]);
    });

    it("finds nothing for a topK under 1 or not a number", async () => {
      const index = await open();
      // Vectors of its own: the shared sequence stays that of the tests after it.
      const own = seededRandom(5);
      const list = Array.from({ length: 3 }, () => randomUnitVector(DIM, own));
      await index.add(items(list));
      for (const topK of [0, 0.5, -1, Number.NaN]) expect(await index.search(list[0], topK)).toEqual([]);
    });

    it("counts live vectors and ignores an empty add", async () => {
      const index = await open();
      await index.add([]);
      expect(await index.count()).toBe(0);
      await index.add(items(vectors(300)));
      expect(await index.count()).toBe(300);
    });

    it("takes single vectors and batches in any order, as a cache's puts and imports come (512-d)", async () => {
      const dimension = 512;
      const index = await open(dimension);
      const list = vectors(140, dimension);
      await index.add(items(list.slice(0, 1)));
      await index.add(items(list.slice(1, 101), 2));
      await index.add(items(list.slice(101, 102), 102));
      await index.add(items(list.slice(102, 140), 103));
      expect(await index.count()).toBe(140);
      for (const i of [0, 50, 101, 139]) expect((await index.search(list[i], 1))[0].id).toBe(i + 1);
    });

    it("hides deleted vectors", async () => {
      const index = await open();
      const list = vectors(10);
      await index.add(items(list));
      await index.delete([4, 5]);
      expect(await index.count()).toBe(8);
      const hits = await index.search(list[3], 10);
      expect(hits.map((hit) => hit.id)).not.toContain(4);
      expect(hits.map((hit) => hit.id)).not.toContain(5);
      expect(hits).toHaveLength(8);
    });

    it("ignores unknown and already deleted ids", async () => {
      const index = await open();
      await index.add(items(vectors(3)));
      await index.delete([2]);
      await index.delete([2, 99, 12345]);
      expect(await index.count()).toBe(2);
    });

    it("finds a vector added again after its delete", async () => {
      const index = await open();
      const list = vectors(5);
      await index.add(items(list));
      await index.delete([2]);
      const replacement = randomUnitVector(DIM, random);
      await index.add([{ id: 2, vector: replacement }]);
      expect(await index.count()).toBe(5);
      const hits = await index.search(replacement, 1);
      expect(hits[0]).toEqual({ id: 2, distance: expect.closeTo(0, 4) });
    });

    it("replaces the vector of an id added twice", async () => {
      const index = await open();
      const list = vectors(5);
      await index.add(items(list));
      const replacement = randomUnitVector(DIM, random);
      await index.add([{ id: 3, vector: replacement }]);
      expect(await index.count()).toBe(5);
      const hits = await index.search(replacement, 5);
      expect(hits[0]).toEqual({ id: 3, distance: expect.closeTo(0, 4) });
      expect(hits.filter((hit) => hit.id === 3)).toHaveLength(1);
      const old = await index.search(list[2], 5);
      expect(old.find((hit) => hit.id === 3)?.distance).toBeCloseTo(1 - cosineSimilarity(list[2], replacement), digits);
    });

    it("rejects vectors of the wrong dimension", async () => {
      const index = await open();
      await index.add(items(vectors(2)));
      const add = await thrown(index.add([{ id: 9, vector: randomUnitVector(DIM + 1, random) }]));
      expect(DimensionMismatchError.isInstance(add)).toBe(true);
      const search = await thrown(index.search(randomUnitVector(DIM - 1, random), 1));
      expect(DimensionMismatchError.isInstance(search)).toBe(true);
      expect(await index.count()).toBe(2);
    });

    it("clears every vector and accepts new ones afterwards", async () => {
      const index = await open();
      await index.add(items(vectors(20)));
      await index.clear();
      expect(await index.count()).toBe(0);
      expect(await index.search(vectors(1)[0], 5)).toEqual([]);
      const fresh = vectors(2);
      await index.add(items(fresh, 50));
      expect(await index.count()).toBe(2);
      expect((await index.search(fresh[1], 1))[0].id).toBe(51);
    });

    it("reports the highest id added (lastId; only shared indexes may omit it)", async () => {
      const index = await open();
      if (index.lastId === undefined) {
        expect(index.capabilities.shared).toBe(true);
        return;
      }
      expect(await index.lastId()).toBe(0);
      const [a, b, c] = vectors(3);
      await index.add([
        { id: 5, vector: a },
        { id: 9, vector: b },
        { id: 3, vector: c },
      ]);
      expect(await index.lastId()).toBe(9);
    });

    it(`finds the stored vector first for >= ${minRecall * 100}% of queries at cosine 0.95 (2,000 x 64-d)`, async () => {
      const dimension = 64;
      const index = await open(dimension);
      const list = vectors(2000, dimension);
      await index.add(items(list));
      let found = 0;
      for (let q = 0; q < 100; q++) {
        const target = Math.floor(random() * list.length);
        const hits = await index.search(vectorAtCosine(list[target], 0.95, random), 1);
        if (hits[0]?.id === target + 1) found++;
      }
      expect(found / 100).toBeGreaterThanOrEqual(minRecall);
    });

    it("finds every stored vector by its own vector: none left out of reach (2,000 x 8-d, one batch)", async () => {
      const index = await open();
      const list = vectors(2000);
      await index.add(items(list));
      const unreachable: number[] = [];
      for (const [i, vector] of list.entries()) {
        const [best] = await index.search(vector, 1);
        // A rounding index may rank a near tie first (exactly within 0.01: its rounding); anything else means entry i cannot be found.
        const tie = best !== undefined && best.id !== i + 1 && 1 - cosineSimilarity(list[best.id - 1], vector) < 0.01;
        if (best?.id !== i + 1 && !tie) unreachable.push(i + 1);
      }
      // An index that declares itself approximate (minRecall under 0.99) may leave that share out of reach.
      expect(unreachable.length).toBeLessThanOrEqual(minRecall >= 0.99 ? 0 : Math.floor(list.length * (1 - minRecall)));
    });

    describe("persistence", () => {
      itPersistent("keeps vectors, deletes and lastId across close and reopen", async () => {
        const index = await open();
        const list = vectors(30);
        await index.add(items(list));
        await index.delete([7]);
        const again = await reopen(index);
        expect(await again.count()).toBe(29);
        expect((await again.search(list[11], 1))[0]).toEqual({ id: 12, distance: expect.closeTo(0, 4) });
        expect((await again.search(list[6], 30)).map((hit) => hit.id)).not.toContain(7);
        if (again.lastId) expect(await again.lastId()).toBe(30);
        await again.add([{ id: 31, vector: list[6] }]);
        expect((await again.search(list[6], 1))[0].id).toBe(31);
      });

      itPersistent("takes a batch after a reopen (512-d)", async () => {
        const dimension = 512;
        const list = vectors(120, dimension);
        const index = await open(dimension);
        await index.add(items(list.slice(0, 3)));
        await index.flush();
        const again = await reopen(index, dimension);
        await again.add(items(list.slice(3, 5), 4));
        await again.add(items(list.slice(5, 120), 6));
        expect(await again.count()).toBe(120);
        expect((await again.search(list[60], 1))[0].id).toBe(61);
      });

      itPersistent("keeps a clear across close and reopen", async () => {
        const index = await open();
        await index.add(items(vectors(5)));
        await index.flush();
        await index.clear();
        const again = await reopen(index);
        expect(await again.count()).toBe(0);
        expect(await again.search(vectors(1)[0], 3)).toEqual([]);
      });

      itPersistent("refuses to open saved vectors at another dimension", async () => {
        const index = await open();
        await index.add(items(vectors(3)));
        await index.flush();
        await index.close();
        const error = await thrown(open(DIM * 2, options.reopen ?? options.create));
        expect(DimensionMismatchError.isInstance(error)).toBe(true);
      });
    });
  });
}
