import type { SpecificationVersion } from "./specification.js";

/** Binary objects a cached answer points to (generated images, audio). */
export interface ObjectStore {
  /** The contract version the component was written against; none: v1 (see specification.ts). */
  readonly specificationVersion?: SpecificationVersion;
  readonly kind: string;
  init(): Promise<void>;
  /** Stores bytes and returns the key to find them again. */
  put(data: Uint8Array, options?: { extension?: string; contentType?: string }): Promise<string>;
  /** The bytes under a key, or null. */
  get(key: string): Promise<Uint8Array | null>;
  /** A URL the bytes can be fetched from (file:// for local, a presigned link for s3). */
  getUrl(key: string): Promise<string>;
  /** Removes keys; unknown keys are ignored. */
  delete(keys: readonly string[]): Promise<void>;
  close(): Promise<void>;
}
