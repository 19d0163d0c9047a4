/** The s3 object store for real against s3rver (an S3 emulator) on a free port, through the AWS SDK v3. */
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { StoreError, UnknownKindError, ValidationError } from "../../src/core/errors.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import { S3ObjectStore, type S3ObjectStoreOptions } from "../../src/stores/object/s3.js";
import { testObjectStore } from "../../src/testing/object-store-contract.js";
import { tempDir } from "../helpers/fixtures.js";
import { freePort, startS3Server, type S3Server } from "../helpers/local-services.js";
import { testCollection } from "../helpers/vector-database.js";

const data = tempDir("semcache-s3rver-");
let server: S3Server;
const BUCKET = "semcache-test";

beforeAll(async () => {
  server = await startS3Server(data.path);
});

afterAll(async () => {
  await server?.stop();
  data.cleanup();
});

/** Options for a store on the emulator, under a prefix of its own. */
function onServer(extra: Partial<S3ObjectStoreOptions> = {}): S3ObjectStoreOptions {
  return {
    bucket: BUCKET,
    prefix: `${testCollection("run")}/`,
    endpoint: server.endpoint,
    credentials: server.credentials,
    createBucket: true,
    ...extra,
  };
}

async function keysUnder(prefix: string): Promise<string[]> {
  const client = new S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, credentials: server.credentials });
  try {
    const answer = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (answer.Contents ?? []).map((object) => object.Key!);
  } finally {
    client.destroy();
  }
}

testObjectStore({ name: "S3ObjectStore (s3rver)", create: () => new S3ObjectStore(onServer()) });

describe("S3ObjectStore", () => {
  it("keeps objects under its prefix with their content type, and deletes them there", async () => {
    const options = onServer();
    const store = new S3ObjectStore(options);
    await store.init();
    const key = await store.put(new Uint8Array([1, 2, 3]), { extension: "png", contentType: "image/png" });
    expect(key).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(await keysUnder(options.prefix!)).toEqual([`${options.prefix}${key}`]);
    const response = await fetch(await store.getUrl(key));
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(await store.get(key)).toEqual(new Uint8Array([1, 2, 3]));
    await store.delete([key]);
    expect(await keysUnder(options.prefix!)).toEqual([]);
    await store.close();
  });

  // s3rver does not check signatures, so this checks the link's form; the contract fetches the bytes through it.
  it("gives SigV4 presigned links valid for urlExpiresInSeconds, to the prefixed key", async () => {
    const options = onServer({ urlExpiresInSeconds: 120 });
    const store = new S3ObjectStore(options);
    await store.init();
    const key = await store.put(new Uint8Array([9]));
    const url = new URL(await store.getUrl(key));
    expect(url.pathname).toBe(`/${BUCKET}/${options.prefix}${key}`);
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("120");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^S3RVER\//);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    await store.close();
  });

  it("deletes more keys than one DeleteObjects request takes", async () => {
    const options = onServer();
    const store = new S3ObjectStore(options);
    await store.init();
    const kept = await store.put(new Uint8Array([1]));
    const missing = Array.from({ length: 1001 }, (_, i) => `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000.bin`);
    await store.delete([...missing, kept]);
    expect(await keysUnder(options.prefix!)).toEqual([]);
    await store.close();
  });

  it("refuses a missing bucket unless asked to create it, naming the store and the bucket", async () => {
    const store = new S3ObjectStore(onServer({ bucket: "no-such-bucket", createBucket: false }));
    const error = await store.init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as StoreError).store).toBe("s3");
    expect((error as Error).message).toContain("s3://no-such-bucket/");
  });

  it("names the store and the endpoint when the server is down at start", async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const store = new S3ObjectStore(onServer({ endpoint }));
    const error = await store.init().catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(endpoint);
    await store.close();
  });

  it("fails loudly while the server is down and works again once it is back, without a new init", async () => {
    const store = new S3ObjectStore(onServer());
    await store.init();
    const key = await store.put(new Uint8Array([5, 6]));
    const port = server.port;
    await server.stop();
    try {
      expect(StoreError.isInstance(await store.put(new Uint8Array([7])).catch((e: unknown) => e))).toBe(true);
      expect(StoreError.isInstance(await store.get(key).catch((e: unknown) => e))).toBe(true);
    } finally {
      server = await startS3Server(data.path, port);
    }
    expect(await store.get(key)).toEqual(new Uint8Array([5, 6]));
    expect(await store.get(await store.put(new Uint8Array([7])))).toEqual(new Uint8Array([7]));
    await store.close();
  });

  it("checks its options before connecting", () => {
    expect(() => new S3ObjectStore({ bucket: "Bad_Bucket" })).toThrow(ValidationError);
    expect(() => new S3ObjectStore({ bucket: "good-bucket", prefix: "../up/" })).toThrow(/prefix/);
    expect(() => new S3ObjectStore({ bucket: "good-bucket", prefix: "no-slash" })).toThrow(/prefix/);
    expect(() => new S3ObjectStore({ bucket: "good-bucket", urlExpiresInSeconds: 0 })).toThrow(/urlExpiresInSeconds/);
    const saved = process.env.SEMCACHE_S3_BUCKET;
    delete process.env.SEMCACHE_S3_BUCKET;
    try {
      expect(() => new S3ObjectStore({})).toThrow(/SEMCACHE_S3_BUCKET/);
    } finally {
      if (saved !== undefined) process.env.SEMCACHE_S3_BUCKET = saved;
    }
  });
});

describe('the "s3" object kind', () => {
  it("is built by managerFactory from objectParams, or from SEMCACHE_S3_BUCKET and SEMCACHE_S3_ENDPOINT", async () => {
    const dir = tempDir();
    const saved = { bucket: process.env.SEMCACHE_S3_BUCKET, endpoint: process.env.SEMCACHE_S3_ENDPOINT };
    try {
      const manager = managerFactory("sqlite,hnswlib,s3", { dataDir: dir.path, objectParams: { ...onServer() } });
      await manager.init();
      expect(manager.object).toBeInstanceOf(S3ObjectStore);
      const key = await manager.object!.put(new Uint8Array([4]), { extension: "wav" });
      expect(await manager.object!.get(key)).toEqual(new Uint8Array([4]));
      await manager.close();

      process.env.SEMCACHE_S3_BUCKET = BUCKET;
      process.env.SEMCACHE_S3_ENDPOINT = server.endpoint;
      const fromEnv = managerFactory("sqlite,hnswlib,s3", { dataDir: dir.path, objectParams: { credentials: server.credentials } });
      await fromEnv.init();
      expect((fromEnv.object as S3ObjectStore).location).toBe(`s3://${BUCKET}/semcache/ at ${server.endpoint}`);
      await fromEnv.close();
    } finally {
      for (const [name, value] of [["SEMCACHE_S3_BUCKET", saved.bucket], ["SEMCACHE_S3_ENDPOINT", saved.endpoint]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      dir.cleanup();
    }
  });

  it("is listed when an object kind is unknown", () => {
    expect(() => managerFactory("sqlite,hnswlib,gcs")).toThrow(UnknownKindError);
    expect(() => managerFactory("sqlite,hnswlib,gcs")).toThrow(/Known kinds: local, s3/);
  });
});
