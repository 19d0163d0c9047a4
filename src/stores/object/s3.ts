import type * as S3Sdk from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import type * as Presigner from "@aws-sdk/s3-request-presigner";
import { SemcacheError, StoreError, ValidationError } from "../../core/errors.js";
import { importOptional } from "../../core/optional-import.js";
import { isIntegerBetween } from "../../core/validation.js";
import { messageOf } from "../connection.js";
import { checkObjectKey, newObjectKey } from "./keys.js";
import type { ObjectStore } from "../../core/contracts/object-store.js";

type S3Module = typeof S3Sdk;
type PresignerModule = typeof Presigner;

export interface S3ObjectStoreOptions {
  /** The bucket (else SEMCACHE_S3_BUCKET). It must exist unless `createBucket` is set. */
  bucket?: string;
  /** Prefix of every key, e.g. "semcache/images/" (default "semcache/"); "" for the bucket's root. */
  prefix?: string;
  /** Region (else AWS_REGION, else us-east-1). */
  region?: string;
  /** An S3-compatible endpoint (else SEMCACHE_S3_ENDPOINT): MinIO, R2, s3rver... Path-style addressing is then used. */
  endpoint?: string;
  /** Path-style URLs (bucket in the path). Default: true with an endpoint, false for AWS. */
  forcePathStyle?: boolean;
  /** Static credentials; default the AWS SDK's chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Seconds a presigned link from getUrl() stays valid. Default 3600. */
  urlExpiresInSeconds?: number;
  /** Creates the bucket on init when it does not exist. Default false. */
  createBucket?: boolean;
  /** Your own S3Client (then region, endpoint and credentials are its own; close() leaves it open). */
  client?: S3ClientLike;
}

/**
 * An `S3Client` of @aws-sdk/client-s3, typed by shape so that these declarations compile in an app that does not
 * install the SDK.
 */
export interface S3ClientLike {
  send(command: never): Promise<unknown>;
  destroy(): void;
}

const KIND = "s3";
const FEATURE = 'The "s3" object store';
/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "NoSuchKey" || name === "NotFound" || name === "NoSuchBucket" || statusOf(error) === 404;
}

/**
 * Objects (generated images, audio) in an S3 bucket under a prefix, each under `<prefix><random uuid><extension>`;
 * getUrl() gives a presigned GET link. Works with AWS S3 and S3-compatible servers (MinIO, R2, s3rver).
 */
export class S3ObjectStore implements ObjectStore {
  readonly specificationVersion = "v1";
  readonly kind = KIND;
  readonly bucket: string;
  readonly prefix: string;
  private readonly options: S3ObjectStoreOptions;
  private readonly urlExpiresInSeconds: number;
  private s3?: S3Module;
  private presigner?: PresignerModule;
  private client?: S3Client;

  constructor(options: S3ObjectStoreOptions = {}) {
    if (typeof options !== "object" || options === null) throw new ValidationError("S3ObjectStore: options must be an object");
    const bucket = options.bucket ?? process.env.SEMCACHE_S3_BUCKET;
    if (typeof bucket !== "string" || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new ValidationError(
        `S3ObjectStore: bucket must be an S3 bucket name (objectParams.bucket or SEMCACHE_S3_BUCKET), got ${JSON.stringify(bucket)}`,
      );
    }
    const prefix = options.prefix ?? "semcache/";
    if (typeof prefix !== "string" || !/^(?:[A-Za-z0-9._-]+\/)*$/.test(prefix) || prefix.split("/").some((part) => part === "." || part === "..")) {
      throw new ValidationError(`S3ObjectStore: prefix must be "" or folder names ending in "/", got ${JSON.stringify(prefix)}`);
    }
    const expiresIn = options.urlExpiresInSeconds ?? 3600;
    if (!isIntegerBetween(expiresIn, 1, 604_800)) {
      throw new ValidationError(`S3ObjectStore: urlExpiresInSeconds must be 1 to 604800 seconds, got ${expiresIn}`);
    }
    this.bucket = bucket;
    this.prefix = prefix;
    this.options = options;
    this.urlExpiresInSeconds = expiresIn;
  }

  /** Where the objects are, for messages: "s3://bucket/prefix at endpoint". */
  get location(): string {
    const endpoint = this.options.endpoint ?? process.env.SEMCACHE_S3_ENDPOINT;
    return `s3://${this.bucket}/${this.prefix}${endpoint ? ` at ${endpoint}` : ""}`;
  }

  /** Loads the SDK, checks the bucket answers (creating it when asked to). */
  async init(): Promise<void> {
    if (this.client) return;
    this.s3 = await importOptional<S3Module>("@aws-sdk/client-s3", FEATURE);
    this.presigner = await importOptional<PresignerModule>("@aws-sdk/s3-request-presigner", FEATURE);
    const endpoint = this.options.endpoint ?? process.env.SEMCACHE_S3_ENDPOINT;
    const client =
      (this.options.client as S3Client | undefined) ??
      new this.s3.S3Client({
        region: this.options.region ?? process.env.AWS_REGION ?? "us-east-1",
        endpoint,
        forcePathStyle: this.options.forcePathStyle ?? endpoint !== undefined,
        credentials: this.options.credentials,
      });
    try {
      await this.call("cannot reach the bucket", async () => {
        try {
          await client.send(new this.s3!.HeadBucketCommand({ Bucket: this.bucket }));
        } catch (error) {
          if (!isMissing(error) || !this.options.createBucket) throw error;
          await client.send(new this.s3!.CreateBucketCommand({ Bucket: this.bucket }));
        }
      });
    } catch (error) {
      if (!this.options.client) client.destroy();
      throw error;
    }
    this.client = client;
  }

  async put(data: Uint8Array, options: { extension?: string; contentType?: string } = {}): Promise<string> {
    const key = newObjectKey("S3ObjectStore", options.extension);
    const client = this.ready();
    await this.call(`cannot write ${key}`, () =>
      client.send(
        new this.s3!.PutObjectCommand({ Bucket: this.bucket, Key: this.prefix + key, Body: data, ContentType: options.contentType }),
      ),
    );
    return key;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const name = this.prefix + checkObjectKey("S3ObjectStore", key);
    const client = this.ready();
    return this.call(`cannot read ${key}`, async () => {
      try {
        const answer = await client.send(new this.s3!.GetObjectCommand({ Bucket: this.bucket, Key: name }));
        return answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array(0);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    });
  }

  /** A presigned GET link, valid `urlExpiresInSeconds` (signing needs no request: it works offline). */
  async getUrl(key: string): Promise<string> {
    const name = this.prefix + checkObjectKey("S3ObjectStore", key);
    const client = this.ready();
    return this.call(`cannot sign a link to ${key}`, () =>
      this.presigner!.getSignedUrl(client, new this.s3!.GetObjectCommand({ Bucket: this.bucket, Key: name }), {
        expiresIn: this.urlExpiresInSeconds,
      }),
    );
  }

  async delete(keys: readonly string[]): Promise<void> {
    const names = keys.map((key) => this.prefix + checkObjectKey("S3ObjectStore", key));
    const client = this.ready();
    for (let start = 0; start < names.length; start += DELETE_BATCH) {
      const batch = names.slice(start, start + DELETE_BATCH);
      await this.call("cannot delete", async () => {
        const answer = await client.send(
          new this.s3!.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const failed = (answer.Errors ?? []).filter((error) => error.Code !== "NoSuchKey");
        if (failed.length > 0) throw new Error(failed.map((error) => `${error.Key}: ${error.Code} ${error.Message ?? ""}`).join("; "));
      });
    }
  }

  async close(): Promise<void> {
    if (this.client && !this.options.client) this.client.destroy();
    this.client = undefined;
  }

  private ready(): S3Client {
    if (!this.client) throw new StoreError(KIND, "call init() before using the store");
    return this.client;
  }

  private async call<T>(what: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      if (SemcacheError.isInstance(error)) throw error;
      throw new StoreError(KIND, `${what} (${this.location}): ${messageOf(error)}`, { cause: error });
    }
  }
}
