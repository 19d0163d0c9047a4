import { readdir, readFile, writeFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StoreError } from "../../src/core/errors.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { sampleRecord, testScalarStore } from "../../src/testing/scalar-store-contract.js";

testScalarStore({
  name: "MemoryScalarStore",
  persistent: false,
  create: (ctx) => new MemoryScalarStore({ tableLenConfig: ctx.tableLenConfig, maxReports: ctx.maxReports }),
});

testScalarStore({
  name: "MemoryScalarStore with a JSON file",
  persistent: true,
  create: (ctx) =>
    new MemoryScalarStore({ path: join(ctx.dir, "nested", "data_map.json"), tableLenConfig: ctx.tableLenConfig, maxReports: ctx.maxReports }),
});

describe("MemoryScalarStore file", () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "semcache-memory-"));
    path = join(dir, "data_map.json");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is written on flush (embeddings as base64), without leaving a temp file", async () => {
    const store = new MemoryScalarStore({ path });
    await store.init();
    await store.insert([sampleRecord({ embedding: Float32Array.from([1, 2]) })]);
    await store.flush();
    const saved = JSON.parse(await readFile(path, "utf8"));
    expect(saved.records[0].embedding).toBe(Buffer.from(Float32Array.from([1, 2]).buffer).toString("base64"));
    expect(await readdir(dir)).toEqual(["data_map.json"]);
  });

  it("keeps what was flushed and loses what was not when the process dies without close()", async () => {
    const store = new MemoryScalarStore({ path });
    await store.init();
    const [kept] = await store.insert([sampleRecord({ keyHash: "kept" })]);
    await store.flush();
    await store.insert([sampleRecord({ keyHash: "lost" })]);

    const after = new MemoryScalarStore({ path });
    await after.init();
    expect((await after.findByKey("kept"))?.id).toBe(kept);
    expect(await after.findByKey("lost")).toBeNull();
  });

  it("does not overwrite the file when flushed or closed before init", async () => {
    const first = new MemoryScalarStore({ path });
    await first.init();
    await first.insert([sampleRecord()]);
    await first.close();
    const before = await readFile(path, "utf8");
    const second = new MemoryScalarStore({ path });
    await second.flush();
    await second.close();
    expect(await readFile(path, "utf8")).toBe(before);
  });

  it("refuses a corrupt or foreign file with StoreError and leaves it alone", async () => {
    await writeFile(path, "{not json");
    const corrupt = new MemoryScalarStore({ path });
    await expect(corrupt.init()).rejects.toBeInstanceOf(StoreError);
    await corrupt.close();
    expect(await readFile(path, "utf8")).toBe("{not json");
    await writeFile(path, JSON.stringify({ some: "thing" }));
    await expect(new MemoryScalarStore({ path }).init()).rejects.toBeInstanceOf(StoreError);
  });

  it("refuses to load its file over entries written before init", async () => {
    const store = new MemoryScalarStore({ path });
    await store.insert([sampleRecord()]);
    await expect(store.init()).rejects.toBeInstanceOf(StoreError);
  });

  it("returns records the caller may change without changing the store", async () => {
    const store = new MemoryScalarStore();
    await store.init();
    const [id] = await store.insert([sampleRecord({ deps: [{ name: "n", data: "d", type: "str" }] })]);
    const record = await store.get(id);
    if (!record) throw new Error("record missing");
    record.hitCount = 99;
    record.answer = "changed";
    expect(() => record.deps?.push({ name: "x", data: "y", type: "str" })).toThrow(TypeError);
    expect(await store.get(id)).toMatchObject({ hitCount: 0, answer: "a", deps: [{ name: "n", data: "d", type: "str" }] });
  });
});

describe("MemoryScalarStore report rows", () => {
  it("caps the report rows at maxReports", async () => {
    const store = new MemoryScalarStore({ maxReports: 3 });
    await store.init();
    const row = (i: number) => ({
      userQuestion: `q${i}`,
      cacheQuestionId: i,
      cacheQuestion: `q${i}`,
      cacheAnswer: "a",
      similarity: 1,
      lookupMs: 0,
      hitAtMs: i,
    });
    await store.addReports([1, 2].map(row));
    await store.addReports([3, 4, 5].map(row));
    expect(await store.countReports()).toBe(3);
  });
});
