/**
 * Files the stores create are owner-only (0600) and so are the folders they create (0700), whatever the
 * process's umask: the tests run with umask 0, under which a file created without a mode would be 0644 or 0666.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataManager } from "../../src/manager/data-manager.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { LOCK_FILE } from "../../src/stores/data-dir-lock.js";
import { LocalObjectStore } from "../../src/stores/object/local.js";
import { MemoryScalarStore } from "../../src/stores/scalar/memory.js";
import { sampleRecord } from "../../src/testing/scalar-store-contract.js";

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** "path: mode" of everything under `dir` (not `dir` itself; folders end in "/"), for readable failures. */
function modesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) return [`${name}: ${modeOf(path).toString(8)}`];
    return [`${name}/: ${modeOf(path).toString(8)}`, ...modesUnder(path).map((child) => `${name}/${child}`)];
  });
}

const notPrivate = (entries: string[]) => entries.filter((entry) => !entry.endsWith(entry.includes("/: ") ? "/: 700" : ": 600"));

describe("store files and folders are owner-only", () => {
  let root: string;
  let umask: number;
  let manager: DataManager | undefined;

  beforeEach(() => {
    umask = process.umask(0);
    root = mkdtempSync(join(tmpdir(), "semcache-modes-"));
  });
  afterEach(async () => {
    await manager?.close();
    manager = undefined;
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it.each(["usearch", "hnswlib"])("sqlite,%s,local: the database, its WAL and shared memory, the index, its lock, objects and every folder", async (vector) => {
    const dataDir = join(root, "nested", "data");
    manager = managerFactory(`sqlite,${vector},local`, { dataDir, vectorParams: { dimension: 4 } });
    await manager.init();
    await manager.save([{ question: "q", answer: "a", keyHash: "k", partition: "p", embedding: [1, 0, 0, 0] }]);
    await manager.object?.put(new Uint8Array([1, 2, 3]), { extension: ".png" });
    await manager.flush();

    const entries = modesUnder(join(root, "nested"));
    for (const name of ["data/sqlite.db", "data/sqlite.db-wal", "data/sqlite.db-shm", `data/${vector}/${LOCK_FILE}`, `data/${vector}/manifest.json`]) {
      expect(entries).toContain(`${name}: 600`);
    }
    expect(entries.some((entry) => new RegExp(`^data/${vector}/data-\\d+: 600$`).test(entry))).toBe(true);
    expect(entries.some((entry) => /^data\/objects\/[^/]+\.png: 600$/.test(entry))).toBe(true);
    for (const dir of ["data", `data/${vector}`, "data/objects"]) expect(entries).toContain(`${dir}/: 700`);
    expect(modeOf(join(root, "nested"))).toBe(0o700);
    expect(notPrivate(entries)).toEqual([]);
  });

  it("the memory store's JSON file and an object store's folder", async () => {
    const store = new MemoryScalarStore({ path: join(root, "map", "data_map.json") });
    await store.init();
    await store.insert([sampleRecord()]);
    await store.close();
    expect(modesUnder(root)).toEqual(["map/: 700", "map/data_map.json: 600"]);

    const objects = new LocalObjectStore({ path: join(root, "objects") });
    await objects.init();
    await objects.put(new Uint8Array([1]));
    expect(modeOf(join(root, "objects"))).toBe(0o700);
  });

  it("leaves the mode of a folder that already exists as it is", async () => {
    const dataDir = join(root, "shared");
    mkdirSync(dataDir, { mode: 0o755 });
    manager = managerFactory("sqlite", { dataDir });
    await manager.init();
    expect(modeOf(dataDir)).toBe(0o755);
    expect(modeOf(join(dataDir, "sqlite.db"))).toBe(0o600);
  });
});
