/**
 * A bulk add into an in-process index runs in slices with the event loop turning between them, so a server goes
 * on answering while an import builds its index. Slices are at most 1,024 vectors, so 3,000 take several turns
 * however fast the machine is.
 */
import { HnswIndex } from "../../src/stores/vector/hnsw.js";
import { UsearchIndex } from "../../src/stores/vector/usearch-index.js";
import { randomUnitVector, seededRandom } from "../../src/testing/vector-index-contract.js";
import type { VectorIndex } from "../../src/core/contracts/vector-index.js";

const DIMENSION = 8;
const ROWS = 3000;

const indexes: Array<[string, () => VectorIndex]> = [
  ["HnswIndex", () => new HnswIndex({ dimension: DIMENSION })],
  ["UsearchIndex", () => new UsearchIndex({ dimension: DIMENSION })],
];

describe.each(indexes)("%s bulk add", (_name, create) => {
  it("lets the event loop turn, and reads between its slices see a growing index", async () => {
    const index = create();
    await index.init();
    const random = seededRandom(7);
    const items = Array.from({ length: ROWS }, (_, i) => ({ id: i + 1, vector: randomUnitVector(DIMENSION, random) }));
    const seenDuring: number[] = [];
    let settled = false;
    const adding = index.add(items).finally(() => (settled = true));
    let turns = 0;
    const tick = (): void => {
      if (settled) return;
      turns++;
      void index.count().then((count) => seenDuring.push(count));
      setImmediate(tick);
    };
    setImmediate(tick);
    await adding;
    expect(turns).toBeGreaterThanOrEqual(2);
    expect(seenDuring.some((count) => count > 0 && count < ROWS)).toBe(true);
    expect(seenDuring).toEqual([...seenDuring].sort((a, b) => a - b));
    expect(await index.count()).toBe(ROWS);
    const [nearest] = await index.search(items[1234].vector, 1);
    expect(nearest.id).toBe(1235);
    await index.close();
  });

  it("a change queued behind close() fails: it does not build a new index after the folder is released", async () => {
    const index = create();
    await index.init();
    const random = seededRandom(9);
    const items = Array.from({ length: ROWS }, (_, i) => ({ id: i + 1, vector: randomUnitVector(DIMENSION, random) }));
    const adding = index.add(items);
    // Between two slices of the add close() queues behind it; a slice later, an add queues behind the close.
    await new Promise((resolve) => setImmediate(resolve));
    const closing = index.close();
    await new Promise((resolve) => setImmediate(resolve));
    const late = index.add([{ id: ROWS + 1, vector: randomUnitVector(DIMENSION, random) }]);
    const lateFlush = index.flush();
    await adding;
    await closing;
    await expect(late).rejects.toThrow(/the index is closed/);
    await expect(lateFlush).rejects.toThrow(/the index is closed/);
  });

  it("sizes a bulk add's first slice from the last add's rate: 40 vectors take no turn after a first add", async () => {
    const index = create();
    await index.init();
    const random = seededRandom(11);
    const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i, vector: randomUnitVector(DIMENSION, random) }));
    await index.add(items(1, ROWS));
    let turned = false;
    // Before any add the first slice is 32 vectors, so 40 would take two slices (and a turn). At 8-d both indexes
    // add a vector in well under 0.5 ms, the most that lets 40 fit in one slice's 20 ms.
    const adding = index.add(items(ROWS + 1, 40));
    setImmediate(() => (turned = true));
    await adding;
    expect(turned).toBe(false);
    expect(await index.count()).toBe(ROWS + 40);
    await index.close();
  });

  it("adds a single vector without waiting for a turn", async () => {
    const index = create();
    await index.init();
    let turned = false;
    const adding = index.add([{ id: 1, vector: randomUnitVector(DIMENSION, seededRandom(1)) }]);
    setImmediate(() => (turned = true));
    await adding;
    expect(turned).toBe(false);
    await index.close();
  });
});
