import { readFile, rm } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { writeFileAtomic } from "../../core/atomic-file.js";
import { StoreError, ValidationError } from "../../core/errors.js";
import { makePrivateDir } from "../../core/private-files.js";
import { checkObjectKey, newObjectKey } from "./keys.js";
import type { ObjectStore } from "../../core/contracts/object-store.js";

export interface LocalObjectStoreOptions {
  /** Folder the objects are kept in (created owner-only on init; objects are owner-only files). */
  path: string;
}

const KIND = "local";

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Objects (generated images, audio) as files in one folder, named `<random uuid><extension>`. */
export class LocalObjectStore implements ObjectStore {
  readonly specificationVersion = "v1";
  readonly kind = KIND;
  private readonly dir: string;

  constructor(options: LocalObjectStoreOptions) {
    if (typeof options?.path !== "string" || options.path === "") {
      throw new ValidationError("LocalObjectStore: path must be a folder name");
    }
    this.dir = resolve(options.path);
  }

  async init(): Promise<void> {
    await this.io("create the folder", () => makePrivateDir(this.dir));
  }

  /** Writes a temporary file, syncs it and renames it: a reader never sees half an object. */
  async put(data: Uint8Array, options: { extension?: string; contentType?: string } = {}): Promise<string> {
    const key = newObjectKey("LocalObjectStore", options.extension);
    const temp = join(this.dir, `.${key}.tmp`);
    await this.io(`write ${key}`, async () => {
      await writeFileAtomic(join(this.dir, key), data, temp);
    });
    return key;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const file = this.fileOf(key);
    try {
      return new Uint8Array(await readFile(file));
    } catch (error) {
      if (errorCode(error) === "ENOENT") return null;
      throw new StoreError(KIND, `cannot read ${key}`, { cause: error });
    }
  }

  async getUrl(key: string): Promise<string> {
    return pathToFileURL(this.fileOf(key)).href;
  }

  async delete(keys: readonly string[]): Promise<void> {
    const files = keys.map((key) => this.fileOf(key));
    await this.io("delete", async () => {
      for (const file of files) await rm(file, { force: true });
    });
  }

  async close(): Promise<void> {}

  /** The file of a key; a key that could name anything outside the folder is refused. */
  private fileOf(key: string): string {
    const file = resolve(this.dir, checkObjectKey("LocalObjectStore", key));
    if (!file.startsWith(this.dir + sep)) throw new ValidationError(`LocalObjectStore: invalid key "${key}"`);
    return file;
  }

  private async io<T>(what: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw new StoreError(KIND, `cannot ${what} in ${this.dir}`, { cause: error });
    }
  }
}
