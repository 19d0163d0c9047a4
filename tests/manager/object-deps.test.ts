/**
 * An entry's `object` deps name the object-store files its answer points to (a generated image): when the data
 * manager purges the entry (evicted, expired or cleared), it deletes those files first. Run over every scalar
 * kind of this machine (memory and SQLite always; the server stores when their test URL is set).
 */
import type { QuestionDep } from "../../src/core/types.js";
import { DataManager } from "../../src/manager/data-manager.js";
import type { ObjectStore } from "../../src/core/contracts/object-store.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { MariaDbScalarStore } from "../../src/stores/scalar/mysql.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { RedisScalarStore } from "../../src/stores/scalar/redis.js";
import { SqliteScalarStore } from "../../src/stores/scalar/sqlite.js";
import type { ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { ManualClock } from "../../src/testing/manual-clock.js";
import { tempDir } from "../helpers/fixtures.js";
import { testUrl, uniquePrefix, type DroppableStore } from "../helpers/server-stores.js";

/** An object store in a Map, whose deletes can be made to fail. */
class MapObjectStore implements ObjectStore {
  readonly kind = "map";
  readonly files = new Map<string, Uint8Array>();
  failDeletes = false;
  private next = 0;
  async init(): Promise<void> {}
  async put(data: Uint8Array): Promise<string> {
    const key = `object-${++this.next}.bin`;
    this.files.set(key, data);
    return key;
  }
  async get(key: string): Promise<Uint8Array | null> {
    return this.files.get(key) ?? null;
  }
  async getUrl(key: string): Promise<string> {
    return `map:${key}`;
  }
  async delete(keys: readonly string[]): Promise<void> {
    if (this.failDeletes) throw new Error("the object store is down");
    for (const key of keys) this.files.delete(key);
  }
  async close(): Promise<void> {}
}

interface Kind {
  name: string;
  open(dir: string): Promise<{ scalar: ScalarStore; cleanup(): Promise<void> }>;
}

/** A server store on its own tables / namespace, dropped by a second instance afterwards. */
function serverKind(name: string, url: string | undefined, create: (url: string, prefix: string) => DroppableStore): Kind[] {
  if (url === undefined) return [];
  return [
    {
      name,
      open: async () => {
        const prefix = uniquePrefix(`od${name.slice(0, 2)}`);
        return {
          scalar: create(url, prefix),
          cleanup: async () => {
            const cleaner = create(url, prefix);
            await cleaner.drop();
            await cleaner.close();
          },
        };
      },
    },
  ];
}

const KINDS: Kind[] = [
  { name: "memory", open: async () => ({ scalar: new MemoryScalarStore(), cleanup: async () => undefined }) },
  { name: "sqlite", open: async (dir) => ({ scalar: new SqliteScalarStore({ path: `${dir}/cache.db` }), cleanup: async () => undefined }) },
  ...serverKind("postgres", testUrl("postgres"), (url, tablePrefix) => new PostgresScalarStore({ url, tablePrefix })),
  ...serverKind("mariadb", testUrl("mysql"), (url, tablePrefix) => new MariaDbScalarStore({ url, tablePrefix })),
  ...serverKind("redis", testUrl("redis"), (url, namespace) => new RedisScalarStore({ url, namespace })),
];

describe.each(KINDS)("object deps over the $name scalar store", (kind) => {
  let dir: ReturnType<typeof tempDir>;
  let objects: MapObjectStore;
  let scalar: ScalarStore;
  let cleanup: () => Promise<void>;
  let manager: DataManager;

  beforeEach(async () => {
    dir = tempDir("semcache-deps-");
    objects = new MapObjectStore();
    ({ scalar, cleanup } = await kind.open(dir.path));
  });
  afterEach(async () => {
    await manager?.close();
    await cleanup();
    dir.cleanup();
  });

  /** Stores an entry whose answer points to `files` new objects; returns their keys. */
  async function saveWithFiles(question: string, files: number): Promise<string[]> {
    const keys = await Promise.all(Array.from({ length: files }, () => objects.put(new Uint8Array([1, 2, 3]))));
    const deps: QuestionDep[] = keys.map((key) => ({ name: "image", data: key, type: "object" }));
    await manager.save([{ question, keyHash: question, partition: "p", answer: JSON.stringify(keys), answerType: "image_base64", deps }]);
    return keys;
  }

  it("deletes the files of evicted entries at the next flush, and every file on clear", async () => {
    manager = new DataManager({ scalar, object: objects, maxSize: 2, cleanSize: 1, eviction: "FIFO" });
    await manager.init();
    const first = await saveWithFiles("first", 2);
    const second = await saveWithFiles("second", 1);
    const third = await saveWithFiles("third", 1);
    // "first" was evicted by the third save; its files go when it is purged.
    expect([...objects.files.keys()].sort()).toEqual([...first, ...second, ...third].sort());
    await manager.flush();
    expect([...objects.files.keys()].sort()).toEqual([...second, ...third].sort());
    expect((await manager.findExact("second"))?.deps).toEqual([{ name: "image", data: second[0], type: "object" }]);
    await manager.clear();
    expect(objects.files.size).toBe(0);
    expect(await manager.count()).toBe(0);
  });

  it("deletes the files of expired entries", async () => {
    const clock = new ManualClock();
    manager = new DataManager({ scalar, object: objects, ttlSeconds: 0.05, clock });
    await manager.init();
    const old = await saveWithFiles("old", 1);
    clock.advance(80);
    const fresh = await saveWithFiles("fresh", 1);
    await manager.flush();
    expect([...objects.files.keys()]).toEqual(fresh);
    expect(objects.files.has(old[0])).toBe(false);
  });

  it("keeps the rows of a purge whose file deletion failed, and deletes their files at the next one", async () => {
    manager = new DataManager({ scalar, object: objects });
    await manager.init();
    const keys = await saveWithFiles("kept until its files go", 1);
    objects.failDeletes = true;
    await expect(manager.clear()).rejects.toThrow("the object store is down");
    expect(objects.files.has(keys[0])).toBe(true);
    expect(await scalar.deletedObjectKeys()).toEqual(keys);
    objects.failDeletes = false;
    await manager.flush();
    expect(objects.files.size).toBe(0);
    expect(await scalar.deletedObjectKeys()).toEqual([]);
  });
});
