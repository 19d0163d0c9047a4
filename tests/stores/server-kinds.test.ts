/** Factory strings and connection settings of the server stores (nothing here connects). */
import { UnknownKindError, ValidationError } from "../../src/core/errors.js";
import { managerFactory, SCALAR_KINDS } from "../../src/presets/manager-factory.js";
import { ENV_URLS, redactUrl, resolveUrl } from "../../src/stores/connection.js";
import { MongoScalarStore } from "../../src/stores/scalar/mongodb.js";
import { MariaDbScalarStore, MySqlScalarStore } from "../../src/stores/scalar/mysql.js";
import { PostgresScalarStore } from "../../src/stores/scalar/postgres.js";
import { RedisScalarStore } from "../../src/stores/scalar/redis.js";

describe("server scalar kinds in managerFactory", () => {
  it.each([
    ["postgres", PostgresScalarStore],
    ["mysql", MySqlScalarStore],
    ["mariadb", MariaDbScalarStore],
    ["redis", RedisScalarStore],
    ["mongodb", MongoScalarStore],
  ])("%s builds its store, shared and persistent", (kind, StoreClass) => {
    const manager = managerFactory(`${kind},hnswlib`, { scalarParams: { url: undefined, host: "db.internal", port: 1234 } });
    expect(manager.scalar).toBeInstanceOf(StoreClass);
    expect(manager.scalar.kind).toBe(kind);
    expect(manager.scalar.capabilities).toEqual({ persistent: true, shared: true });
    expect((manager.scalar as unknown as { target: string }).target).toContain("db.internal:1234");
  });

  it("names the new kinds when a scalar kind is unknown", () => {
    expect(() => managerFactory("cassandra,hnswlib")).toThrow(UnknownKindError);
    expect(() => managerFactory("cassandra")).toThrow(/postgres, mysql, mariadb, redis, mongodb/);
  });

  it("gives the manager's ttl to the redis store unless scalarParams sets one", async () => {
    const redis = managerFactory("redis", { ttlSeconds: 30, scalarParams: { url: "redis://127.0.0.1:1" } }).scalar as RedisScalarStore;
    expect((redis as unknown as { ttlMs: number }).ttlMs).toBe(60_000);
    const own = managerFactory("redis", { ttlSeconds: 30, scalarParams: { url: "redis://127.0.0.1:1", ttlSeconds: 5 } }).scalar;
    expect((own as unknown as { ttlMs: number }).ttlMs).toBe(10_000);
  });

  it("rejects a bad syncIntervalMs", () => {
    expect(() => managerFactory("postgres,hnswlib", { syncIntervalMs: -1 })).toThrow(ValidationError);
  });
});

describe("connection settings", () => {
  it("takes the url first, then host/port, then the first environment URL of the right scheme", () => {
    const env = { SEMCACHE_POSTGRES_URL: "", DATABASE_URL: "mysql://elsewhere/db", SEMCACHE_MYSQL_URL: "mysql://root@m:3306/x" };
    expect(resolveUrl("postgres", { url: "postgresql://a/b" }, env)).toBe("postgresql://a/b");
    expect(resolveUrl("postgres", {}, env)).toBeUndefined();
    expect(resolveUrl("postgres", {}, { ...env, DATABASE_URL: "postgres://p/db" })).toBe("postgres://p/db");
    expect(resolveUrl("mariadb", {}, env)).toBe("mysql://root@m:3306/x");
    expect(resolveUrl("mysql", { host: "h" }, env)).toBeUndefined();
    expect(ENV_URLS.redis[0]).toBe("SEMCACHE_REDIS_URL");
  });

  it("rejects wrong types and schemes with ValidationError", () => {
    expect(() => resolveUrl("redis", { url: "mysql://x" })).toThrow(ValidationError);
    expect(() => resolveUrl("redis", { port: 70000 })).toThrow(ValidationError);
    expect(() => resolveUrl("postgres", { host: 5 as unknown as string })).toThrow(ValidationError);
    expect(() => new PostgresScalarStore({ poolSize: 0 })).toThrow(ValidationError);
  });

  it("never shows a password", () => {
    expect(redactUrl("postgres://me:secret@h:5432/db")).toBe("postgres://me:***@h:5432/db");
    expect(redactUrl("redis://:secret@h:6379")).not.toContain("secret");
    expect(new MySqlScalarStore({ url: "mysql://root:pw@h/db" }).target).not.toContain("pw");
  });

  it("registers every server kind", () => {
    expect(Object.keys(SCALAR_KINDS)).toEqual(expect.arrayContaining(["postgres", "mysql", "mariadb", "redis", "mongodb"]));
  });
});
