/**
 * managerFactory hands the in-process scalar kinds every scalarParams key they take, and refuses the ones they
 * do not: nothing given is silently dropped (the memory store used to ignore tableLenConfig).
 */
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { Cache } from "../../src/presets/cache.js";
import { ValidationError, ValueTooLongError } from "../../src/core/errors.js";
import { put } from "../../src/core/api.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import { tempDir } from "../helpers/fixtures.js";

describe("managerFactory's scalarParams for the in-process kinds", () => {
  const dir = tempDir("semcache-factory-");
  afterAll(() => dir.cleanup());

  it("gives the memory store its tableLenConfig: a question or answer over the limit is refused", async () => {
    const manager = managerFactory("memory", { scalarParams: { tableLenConfig: { question: 10, answer: 5 } } });
    expect(manager.scalar.tableLen).toMatchObject({ question: 10, answer: 5 });
    const cache = await new Cache().init({ dataManager: manager });
    await expect(put("a question longer than ten", "ok", { cacheObj: cache })).rejects.toBeInstanceOf(ValueTooLongError);
    await expect(put("short", "too long", { cacheObj: cache })).rejects.toThrow(/tableLenConfig\.answer\)/);
    await put("short", "fine", { cacheObj: cache });
    expect(await manager.count()).toBe(1);
    await cache.close();
  });

  it("reads table_len_config for the memory store from a YAML config", () => {
    const { scalarParams } = loadGptCacheConfig("storage_config:\n  manager: memory\n  scalar_params:\n    table_len_config:\n      question_question: 12\n").storage;
    expect(managerFactory("memory", { scalarParams }).scalar.tableLen.question).toBe(12);
  });

  it("passes every SqliteScalarStore option through", () => {
    const store = managerFactory("sqlite", {
      dataDir: dir.path,
      scalarParams: { tablePrefix: "p_", tableLenConfig: { sessionId: 7 }, maxReports: 3, busyTimeoutMs: 100, recentRecords: 0 },
    }).scalar as SqliteScalarStore;
    expect(store.tableLen.sessionId).toBe(7);
    expect(store).toMatchObject({ maxReports: 3, busyTimeoutMs: 100 });
  });

  it("refuses a key the kind does not take, naming the ones it does", () => {
    expect(() => managerFactory("memory", { scalarParams: { tablePrefix: "x_" } })).toThrow(ValidationError);
    expect(() => managerFactory("memory", { scalarParams: { tablePrefix: "x_" } })).toThrow(
      "scalarParams: tablePrefix does not apply to the memory store (it takes path, tableLenConfig, maxReports).",
    );
    expect(() => managerFactory("sqlite", { dataDir: dir.path, scalarParams: { url: "postgres://db/x", poolSize: 2 } })).toThrow(
      /url, poolSize do not apply to the sqlite store/,
    );
    // An unset key is no setting at all.
    expect(() => managerFactory("memory", { scalarParams: { tablePrefix: undefined } })).not.toThrow();
  });
});
