import { Cache, Config, DistanceEvaluation, NotInitError, Session, ValidationError, cached, get, managerFactory, put, type CacheInitOptions } from "../../src/index.js";
import { runCached } from "../../src/core/pipeline.js";
import { seededRandom } from "../../src/testing/index.js";
import { BagOfWordsEmbedding, countingModel, tempDir } from "../helpers/fixtures.js";

let dirs: Array<{ cleanup: () => void }> = [];
const caches: Cache[] = [];

afterEach(async () => {
  await Promise.all(caches.splice(0).map((c) => c.close()));
  dirs.forEach((d) => d.cleanup());
  dirs = [];
});

/** A semantic cache on sqlite + hnswlib in a temp folder, with a bag-of-words embedding. */
async function semanticCache(config: ConstructorParameters<typeof Config>[0] = {}, extra: CacheInitOptions = {}) {
  const dir = tempDir();
  dirs.push(dir);
  const embedding = new BagOfWordsEmbedding();
  const c = new Cache();
  caches.push(c);
  await c.init({
    embeddingFunc: embedding,
    dataManager: managerFactory("sqlite,hnswlib", { dataDir: dir.path }),
    similarityEvaluation: new DistanceEvaluation(),
    config: new Config({ similarityThreshold: 0.9, ...config }),
    ...extra,
  });
  return { cache: c, embedding, dir: dir.path };
}

async function exactCache(extra: CacheInitOptions = {}) {
  const c = new Cache();
  caches.push(c);
  await c.init(extra);
  return c;
}

/** A counting model behind `cached()`; `ask(request, perCallOptions?)`. */
function modelFor(cacheObj: Cache, options: Record<string, unknown> = {}) {
  const model = countingModel();
  const ask = cached<[{ prompt: string }, Record<string, unknown>?], string>(async (request) => model.call(request.prompt), {
    toRequest: (request) => request,
    requestOptions: (_request, perCall) => ({ cacheObj, ...options, ...perCall }),
  });
  return { model, ask };
}

describe("request flow", () => {
  it("refuses use before init with NotInitError", async () => {
    await expect(get("hello", { cacheObj: new Cache() })).rejects.toBeInstanceOf(NotInitError);
  });

  it("answers a repeat from the cache and calls the model once", async () => {
    const c = await exactCache();
    const { model, ask } = modelFor(c);
    expect(await ask({ prompt: "what is 2+2" })).toBe("answer to what is 2+2");
    expect(await ask({ prompt: "what is 2+2" })).toBe("answer to what is 2+2");
    expect(model.calls).toBe(1);
    expect(c.report.hits).toBe(1);
    expect(c.report.misses).toBe(1);
  });

  it("temperature 2 never reads the cache (but still stores)", async () => {
    const c = await exactCache();
    await put("q", "stored", { cacheObj: c });
    const model = countingModel();
    const ask = cached(async (r: { prompt: string }) => model.call(r.prompt), { requestOptions: { cacheObj: c, temperature: 2 } });
    for (let i = 0; i < 5; i++) expect(await ask({ prompt: "q" })).toBe("answer to q");
    expect(model.calls).toBe(5);
    expect(c.report.skips).toBe(5);
  });

  it("between 0 and 2 skips with probability 1/(1+e^(1/T)) (seeded)", async () => {
    for (const temperature of [0.5, 1, 1.5]) {
      const c = await exactCache({ config: { random: seededRandom(42) } });
      await put("q", "stored", { cacheObj: c });
      const model = countingModel(undefined, 0);
      const ask = cached(async (r: { prompt: string }) => model.call(r.prompt), { requestOptions: { cacheObj: c, temperature } });
      const n = 2000;
      for (let i = 0; i < n; i++) await ask({ prompt: "q" });
      const expected = 1 / (1 + Math.exp(1 / temperature));
      const observed = c.report.skips / n;
      // 4 standard deviations of a binomial proportion.
      expect(Math.abs(observed - expected)).toBeLessThan(4 * Math.sqrt((expected * (1 - expected)) / n));
      expect(model.calls).toBe(c.report.skips);
    }
  });

  it("rejects a temperature outside [0, 2] before calling the model", async () => {
    const c = await exactCache();
    const { model, ask } = modelFor(c, { temperature: 2.5 });
    await expect(ask({ prompt: "q" })).rejects.toBeInstanceOf(ValidationError);
    const { ask: ask2 } = modelFor(c, { temperature: -1 });
    await expect(ask2({ prompt: "q" })).rejects.toBeInstanceOf(ValidationError);
    expect(model.calls).toBe(0);
  });

  it("rejects wrong option types with ValidationError", async () => {
    const c = await exactCache();
    for (const bad of [{ cacheSkip: "yes" }, { topK: 0 }, { searchOnly: 1 }, { session: 5 }, { cacheObj: {} }]) {
      await expect(
        runCached({ prompt: "q" }, { cacheObj: c, ...(bad as object) }, { name: "t", call: async () => "a", answerOf: (a) => a, fromCache: (h) => h.answer }),
      ).rejects.toBeInstanceOf(ValidationError);
    }
  });

  it("cacheSkip calls the model and saves the answer", async () => {
    const c = await exactCache();
    await put("q", "old", { cacheObj: c });
    const { model, ask } = modelFor(c, { cacheSkip: true });
    expect(await ask({ prompt: "q" })).toBe("answer to q");
    expect(model.calls).toBe(1);
    expect(await get("q", { cacheObj: c })).toBe("answer to q");
  });

  it("a disabled shouldUseCache neither reads nor saves", async () => {
    const c = await exactCache({ shouldUseCache: (request) => request.prompt !== "private" });
    await put("private", "stored", { cacheObj: c });
    expect(await c.dataManager.count()).toBe(0);
    const { model, ask } = modelFor(c);
    await ask({ prompt: "private" });
    await ask({ prompt: "private" });
    expect(model.calls).toBe(2);
    expect(await c.dataManager.count()).toBe(0);
  });

  it("never stores a falsy answer", async () => {
    const c = await exactCache();
    let calls = 0;
    const ask = cached(async (_request: { prompt: string }) => (calls++, ""), { requestOptions: { cacheObj: c } });
    await ask({ prompt: "q" });
    await ask({ prompt: "q" });
    expect(calls).toBe(2);
    expect(await c.dataManager.count()).toBe(0);
  });

  it("stores nothing when the model fails, and the error surfaces unchanged", async () => {
    const c = await exactCache();
    const boom = new Error("upstream 500");
    const ask = cached(async (_request: { prompt: string }) => Promise.reject(boom), { requestOptions: { cacheObj: c } });
    await expect(ask({ prompt: "q" })).rejects.toBe(boom);
    expect(await c.dataManager.count()).toBe(0);
  });

  it("searchOnly returns null on a miss without calling the model", async () => {
    const c = await exactCache();
    const { model, ask } = modelFor(c, { searchOnly: true });
    expect(await ask({ prompt: "q" })).toBeNull();
    expect(model.calls).toBe(0);
  });

  it("partitions by model and sampling settings", async () => {
    const c = await exactCache();
    const model = countingModel();
    const ask = cached(async (r: { prompt: string; model: string; top_p?: number }) => model.call(`${r.model}:${r.prompt}`), {
      requestOptions: { cacheObj: c },
    });
    expect(await ask({ prompt: "q", model: "a" })).toBe("answer to a:q");
    expect(await ask({ prompt: "q", model: "b" })).toBe("answer to b:q");
    expect(await ask({ prompt: "q", model: "a", top_p: 0.5 })).toBe("answer to a:q");
    expect(model.calls).toBe(3);
    expect(await ask({ prompt: "q", model: "b" })).toBe("answer to b:q");
    expect(model.calls).toBe(3);
  });

  it("two cache objects share nothing", async () => {
    const a = await exactCache();
    const b = await exactCache();
    await put("q", "in a", { cacheObj: a });
    expect(await get("q", { cacheObj: a })).toBe("in a");
    expect(await get("q", { cacheObj: b })).toBeNull();
  });

  it("ten concurrent identical misses make one model call", async () => {
    const c = await exactCache();
    const { model, ask } = modelFor(c);
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask({ prompt: "same" })));
    expect(new Set(answers)).toEqual(new Set(["answer to same"]));
    expect(model.calls).toBe(1);
    expect(await c.dataManager.count()).toBe(1);
  });

  it("a waiter on a shared call makes its own call when the leader aborts, but shares a real failure", async () => {
    const c = await exactCache();
    let calls = 0;
    const ask = cached(
      async (request: { prompt: string; abort?: boolean }) => {
        calls++;
        // The model's latency: it answers a turn of the event loop later, once the other caller (its lookup in
        // the memory store settles within this turn) has joined the call in flight.
        await new Promise((resolve) => setImmediate(resolve));
        if (request.abort) throw Object.assign(new Error("The operation was aborted"), { name: "AbortError" });
        if (request.prompt === "fails") throw new Error("upstream 500");
        return "fresh";
      },
      { requestOptions: { cacheObj: c } },
    );
    const [leader, waiter] = await Promise.allSettled([ask({ prompt: "q", abort: true }), ask({ prompt: "q" })]);
    expect(leader).toMatchObject({ status: "rejected", reason: { name: "AbortError" } });
    expect(waiter).toEqual({ status: "fulfilled", value: "fresh" });
    expect(calls).toBe(2);

    calls = 0;
    const both = await Promise.allSettled([ask({ prompt: "fails" }), ask({ prompt: "fails" })]);
    expect(both.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(calls).toBe(1);
  });

  it("a next-cache hit is written back to the first cache", async () => {
    const l2 = await exactCache();
    const l1 = await exactCache({ nextCache: l2 });
    await put("q", "from l2", { cacheObj: l2 });
    const { model, ask } = modelFor(l1);
    expect(await ask({ prompt: "q" })).toBe("from l2");
    expect(model.calls).toBe(0);
    expect(await get("q", { cacheObj: l1 })).toBe("from l2");
    expect(l1.report.hits).toBe(1);
  });

  it("a miss in both caches calls the model once and stores in both", async () => {
    const l2 = await exactCache();
    const l1 = await exactCache({ nextCache: l2 });
    const { model, ask } = modelFor(l1);
    await ask({ prompt: "q" });
    expect(model.calls).toBe(1);
    expect(await get("q", { cacheObj: l1 })).toBe("answer to q");
    expect(await get("q", { cacheObj: l2 })).toBe("answer to q");
  });
});

describe("semantic lookups", () => {
  it("answers a similar question and misses an unrelated one", async () => {
    const { cache: c } = await semanticCache();
    await put("how do I bake sourdough bread at home", "use a starter", { cacheObj: c });
    expect(await get("how do I bake sourdough bread at home today", { cacheObj: c })).toBe("use a starter");
    expect(await get("what is the capital of France", { cacheObj: c })).toBeNull();
  });

  it("answers an exact repeat without embedding it again", async () => {
    const { cache: c, embedding } = await semanticCache();
    await put("what is a monad", "a monoid in the category of endofunctors", { cacheObj: c });
    const before = embedding.calls;
    expect(await get("what is a monad", { cacheObj: c })).toBe("a monoid in the category of endofunctors");
    expect(embedding.calls).toBe(before);
  });

  it("threshold 0 accepts any candidate and 1 needs a perfect score", async () => {
    const loose = await semanticCache({ similarityThreshold: 0 });
    await put("alpha beta gamma", "greek", { cacheObj: loose.cache });
    expect(await get("completely different words here", { cacheObj: loose.cache })).toBe("greek");

    const strict = await semanticCache({ similarityThreshold: 1 });
    await put("alpha beta gamma", "greek", { cacheObj: strict.cache });
    expect(await get("alpha beta gamma delta", { cacheObj: strict.cache })).toBeNull();
    expect(await get("alpha beta gamma", { cacheObj: strict.cache })).toBe("greek");
  });

  it("topK limits the candidates judged", async () => {
    const { cache: c } = await semanticCache({ similarityThreshold: 0 });
    for (let i = 0; i < 20; i++) await put(`topic number ${i} words`, `a${i}`, { cacheObj: c });
    let judged = 0;
    const ctx = {
      evaluationFunc: () => {
        judged++;
        return 1;
      },
    };
    await runCached(
      { prompt: "topic number words something" },
      { cacheObj: c, topK: 3, cacheContext: ctx },
      { name: "t", call: async () => "x", answerOf: (a) => a, fromCache: (h) => h.answer },
    );
    expect(judged).toBe(3);
  });

  it("a missing scalar row is a miss, not an error", async () => {
    const { cache: c } = await semanticCache({ similarityThreshold: 0 });
    await put("only entry here", "answer", { cacheObj: c });
    const [record] = await c.dataManager.scalar.embeddingsAfter(0, 10);
    await c.dataManager.scalar.markDeleted([record.id]);
    expect(await get("only entry here please", { cacheObj: c })).toBeNull();
    expect(c.report.errors).toBe(0);
  });

  it("per-request cacheContext hands extra arguments to the stages", async () => {
    const { cache: c } = await semanticCache();
    const seen: unknown[] = [];
    await c.init({
      embeddingFunc: c.embeddingFunc,
      dataManager: c.dataManager,
      similarityEvaluation: c.similarityEvaluation,
      preEmbeddingFunc: (request, context) => {
        seen.push(context.extra);
        return String(request.prompt);
      },
    });
    await runCached(
      { prompt: "q" },
      { cacheObj: c, cacheContext: { pre_embedding_func: { lang: "en" } } },
      { name: "t", call: async () => "a", answerOf: (a) => a, fromCache: (h) => h.answer },
    );
    expect(seen).toEqual([{ lang: "en" }]);
    await expect(
      runCached({ prompt: "q" }, { cacheObj: c, cacheContext: { nope: 1 } as object }, {
        name: "t",
        call: async () => "a",
        answerOf: (a) => a,
        fromCache: (h) => h.answer,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it("a failing embedding never fails the model call (fail open, counted)", async () => {
    const c = await exactCache({
      embeddingFunc: async () => {
        throw new Error("embedding service down");
      },
      dataManager: managerFactory("memory,memory"),
    });
    const { model, ask } = modelFor(c);
    expect(await ask({ prompt: "q" })).toBe("answer to q");
    expect(model.calls).toBe(1);
    expect(c.report.errors).toBeGreaterThan(0);
  });

  it("a store that fails during lookup never fails the model call", async () => {
    const { cache: c } = await semanticCache();
    await put("q", "stored", { cacheObj: c });
    await c.dataManager.scalar.close(); // the database handle is gone: every query now throws
    const { model, ask } = modelFor(c);
    expect(await ask({ prompt: "q" })).toBe("answer to q");
    expect(model.calls).toBe(1);
    expect(c.report.errors).toBeGreaterThanOrEqual(2); // the lookup and the save
    caches.splice(caches.indexOf(c), 1);
    await expect(c.close()).rejects.toThrow(/not open/); // closing reports the broken store
  });
});

describe("sessions", () => {
  it("a session does not hit its own entry; other sessions do; drop() removes the links", async () => {
    const c = await exactCache();
    const alice = new Session({ name: "alice", cache: c });
    const { model, ask } = modelFor(c);
    await ask({ prompt: "q" }, { session: alice });
    await ask({ prompt: "q" }, { session: alice });
    expect(model.calls).toBe(2);
    await ask({ prompt: "q" }, { session: "bob" });
    expect(model.calls).toBe(2);
    expect((await c.dataManager.listSessions("alice")).length).toBeGreaterThan(0);
    expect(await alice.drop()).toBeGreaterThan(0);
    expect(await c.dataManager.listSessions("alice")).toEqual([]);
  });

  it("accepts a custom check", async () => {
    const c = await exactCache();
    const always = new Session({ name: "s", cache: c, checkHit: () => true });
    const { model, ask } = modelFor(c);
    await ask({ prompt: "q" }, { session: always });
    await ask({ prompt: "q" }, { session: always });
    expect(model.calls).toBe(1);
  });
});

describe("report", () => {
  it("counts stages, hits and saved tokens, and writes report rows on flush", async () => {
    const { cache: c } = await semanticCache();
    await put("how tall is the eiffel tower", "330 metres", { cacheObj: c });
    await get("how tall is the eiffel tower", { cacheObj: c });
    await get("how tall is the eiffel tower exactly", { cacheObj: c });
    expect(c.report.hits).toBe(2);
    expect(c.report.savedTokens).toBeGreaterThan(0);
    expect(c.report.stages.embedding.count).toBeGreaterThan(0);
    expect(c.report.stages.save.count).toBe(1);
    await c.flush();
    expect(await c.dataManager.scalar.countReports()).toBe(2);
  });
});
