import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ValidationError } from "../../src/core/errors.js";
import { LocalObjectStore } from "../../src/stores/object/local.js";
import { testObjectStore } from "../../src/testing/object-store-contract.js";
import { tempDirEachTest } from "../helpers/fixtures.js";

testObjectStore({ name: "LocalObjectStore", create: ({ dir }) => new LocalObjectStore({ path: join(dir, "objects") }) });

describe("LocalObjectStore", () => {
  const temp = tempDirEachTest("semcache-local-");

  it("creates its folder and keeps one finished file per key", async () => {
    const folder = join(temp.path, "a", "b");
    const store = new LocalObjectStore({ path: folder });
    await store.init();
    const key = await store.put(new Uint8Array([7, 8]), { extension: "wav" });
    expect(key).toMatch(/^[0-9a-f-]{36}\.wav$/);
    expect(await readdir(folder)).toEqual([key]);
    expect(await store.getUrl(key)).toBe(pathToFileURL(join(folder, key)).href);
    await store.delete([key]);
    expect(await readdir(folder)).toEqual([]);
  });

  it("rejects extensions that are not plain letters or digits", async () => {
    const store = new LocalObjectStore({ path: temp.path });
    await store.init();
    await expect(store.put(new Uint8Array([1]), { extension: "/../x" })).rejects.toThrow(ValidationError);
    expect(await readdir(temp.path)).toEqual([]);
  });
});
