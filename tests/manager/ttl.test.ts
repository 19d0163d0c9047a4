/**
 * The ttl is the data manager's, and it works the same on every scalar kind: an entry older than the ttl is
 * not served (exact or semantic), and is expired in the store at the next flush. `Config` has no ttl of its
 * own: there and in a YAML `config` section it is refused with a message saying where it belongs.
 */
import { loadGptCacheConfig } from "../../src/config/gptcache-config.js";
import { Config } from "../../src/core/config.js";
import { ValidationError } from "../../src/core/errors.js";
import type { DataManager } from "../../src/manager/data-manager.js";
import { managerFactory, type ScalarParams } from "../../src/presets/manager-factory.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import { tempDir } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix, type DroppableStore } from "../helpers/server-stores.js";

interface Kind {
  name: string;
  /** scalarParams for a run of its own (server stores: a fresh prefix / namespace). */
  params(): ScalarParams;
}

const server = (name: string, url: string | undefined, key: "tablePrefix" | "namespace"): Kind[] =>
  url === undefined ? [] : [{ name, params: () => ({ url, [key]: uniquePrefix(`tl${name.slice(0, 2)}`) }) }];

const KINDS: Kind[] = [
  { name: "memory", params: () => ({}) },
  { name: "sqlite", params: () => ({}) },
  ...server("postgres", testUrl("postgres"), "tablePrefix"),
  ...server("mariadb", testUrl("mysql"), "tablePrefix"),
  ...server("redis", testUrl("redis"), "namespace"),
];

describe.each(KINDS)("the data manager's ttl over the $name store", (kind) => {
  const dir = tempDir("semcache-ttl-");
  let manager: DataManager;
  afterAll(async () => {
    await manager.close();
    await (manager.scalar as Partial<DroppableStore>).drop?.();
    await manager.scalar.close();
    dir.cleanup();
  });

  it("serves no entry older than the ttl, exact or semantic, and expires it in the store", async () => {
    const clock = new ManualClock();
    manager = managerFactory(`${kind.name},flat`, { dataDir: dir.path, ttlSeconds: 0.3, clock, scalarParams: kind.params(), vectorParams: { dimension: 3 } });
    await manager.init();
    // Redis also drops a hash by its own clock (at twice the ttl): start the manual clock at the real time.
    clock.advance(Date.now() - clock.now());
    const [old] = await manager.save([{ question: "old", keyHash: "old", partition: "p", answer: "A", embedding: [1, 0, 0] }]);
    expect((await manager.findExact("old"))?.answer).toBe("A");
    clock.advance(400);
    const [fresh] = await manager.save([{ question: "fresh", keyHash: "fresh", partition: "p", answer: "B", embedding: [0, 1, 0] }]);
    expect(await manager.findExact("old")).toBeNull();
    expect(await manager.getScalarData(old)).toBeNull();
    const hits = await manager.search([1, 0.1, 0], 5);
    const served = (await Promise.all(hits.map((hit) => manager.getScalarData(hit.id)))).filter((record) => record !== null);
    expect(served.map((record) => record.id)).toEqual([fresh]);
    await manager.flush();
    expect(await manager.count()).toBe(1);
    expect((await manager.findExact("fresh"))?.answer).toBe("B");
  });
});

describe("ttl belongs to the data manager, not to Config", () => {
  it("refuses new Config({ ttl }) with a ValidationError naming where the ttl goes", () => {
    expect(() => new Config({ ttl: 60 } as never)).toThrow(ValidationError);
    expect(() => new Config({ ttl: 60 } as never)).toThrow(/managerFactory\(kinds, \{ ttlSeconds \}\).*initSimilarCache\(\{ ttlSeconds \}\).*storage_config\.ttl/);
    expect(() => new Config({ ttlSeconds: 60 } as never)).toThrow(/^Config: ttlSeconds is not a Config setting/);
    expect(new Config()).not.toHaveProperty("ttl");
  });

  it("refuses any other option Config does not take, by name (a typo never does nothing)", () => {
    expect(() => new Config({ similarityTreshold: 0.9 } as never)).toThrow(ValidationError);
    expect(() => new Config({ similarityTreshold: 0.9, top_k: 3 } as never)).toThrow(/unknown options "similarityTreshold", "top_k": Config takes similarityThreshold, topK/);
  });

  it("refuses a YAML config.ttl, naming storage_config.ttl, and reads storage_config.ttl as the manager's", () => {
    expect(() => loadGptCacheConfig("config:\n  ttl: 60\n")).toThrow(ValidationError);
    expect(() => loadGptCacheConfig("config:\n  ttl: 60\n")).toThrow("config.ttl: entries expire in the data manager, in every store: set storage_config.ttl (seconds) instead.");
    expect(loadGptCacheConfig("storage_config:\n  ttl: 60\n").storage.ttlSeconds).toBe(60);
  });
});
