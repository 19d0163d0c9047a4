import { ValidationError } from "../../src/core/errors.js";
import { createVectorIndex } from "../../src/stores/vector/kinds.js";
import { FlatIndex } from "../../src/stores/vector/flat.js";
import { testVectorIndex } from "../../src/testing/vector-index-contract.js";

testVectorIndex({
  name: "FlatIndex",
  create: ({ dimension }) => new FlatIndex({ dimension }),
});

describe("FlatIndex", () => {
  it("is the factory's `flat` kind, and refuses a bad dimension", async () => {
    const index = createVectorIndex("flat", { dimension: 3 });
    expect(index).toBeInstanceOf(FlatIndex);
    expect(index.capabilities).toEqual({ persistent: false, shared: false });
    expect(() => new FlatIndex({ dimension: -1 })).toThrow(ValidationError);
  });

  it("takes its dimension from the first add when built with 0, and searches exactly", async () => {
    const index = new FlatIndex();
    await index.add([
      { id: 1, vector: Float32Array.from([1, 0]) },
      { id: 2, vector: Float32Array.from([0, 1]) },
      { id: 3, vector: Float32Array.from([Math.SQRT1_2, Math.SQRT1_2]) },
    ]);
    expect(index.dimension).toBe(2);
    const hits = await index.search(Float32Array.from([1, 0]), 2);
    expect(hits.map((hit) => hit.id)).toEqual([1, 3]);
    expect(hits[0].distance).toBeCloseTo(0);
    expect(hits[1].distance).toBeCloseTo(1 - Math.SQRT1_2);
    expect(await index.lastId()).toBe(3);
  });
});
