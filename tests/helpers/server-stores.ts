/**
 * Server-database test plumbing: the URLs .ci/run exports, a skip with a printed reason when one is unset,
 * table prefixes unique to this run, and a TCP proxy a test can cut and restore to simulate an outage
 * without stopping the real service.
 */
import { randomBytes } from "node:crypto";
import { createServer, Socket, type AddressInfo, type Server } from "node:net";
import type { EvictionPolicy } from "../../src/core/contracts/eviction.js";
import type { ScalarStore, TableLenConfig } from "../../src/core/contracts/scalar-store.js";
import { testEvictionPolicy } from "../../src/testing/eviction-contract.js";
import { testScalarStore, type StoreTestContext } from "../../src/testing/scalar-store-contract.js";

export const TEST_URL_VARS = {
  postgres: "SEMCACHE_TEST_POSTGRES_URL",
  mysql: "SEMCACHE_TEST_MYSQL_URL",
  redis: "SEMCACHE_TEST_REDIS_URL",
  mongodb: "SEMCACHE_TEST_MONGODB_URL",
} as const;

/**
 * The test URL of a service, or undefined after printing why its tests are skipped. Registers one skipped
 * test naming the variable, so the file still reports something.
 */
export function testUrl(service: keyof typeof TEST_URL_VARS): string | undefined {
  const name = TEST_URL_VARS[service];
  const url = process.env[name];
  if (url) return url;
  process.stderr.write(`[skip] ${service} tests: ${name} is not set (.ci/run sets it where the service runs)\n`);
  it.skip(`${service} tests need ${name}`, () => undefined);
  return undefined;
}

/** A table prefix / namespace no other run or test uses: the services keep state between runs. */
export function uniquePrefix(label: string): string {
  return `t${label}_${process.pid}_${randomBytes(3).toString("hex")}_`;
}

/** Most recently used first: a custom policy the stores have never heard of (SQL ORDER BY, a Redis index). */
export const MRU: EvictionPolicy = {
  name: "MRU",
  order: [
    { column: "lastAccessedAtMs", direction: "desc" },
    { column: "id", direction: "desc" },
  ],
};

/** A server store the tests can remove again. */
export type DroppableStore = ScalarStore & { drop(): Promise<void> };

/** What a contract test asks of a server store besides its prefix (see StoreTestContext). */
export type ContractStoreOptions = { tableLenConfig?: Partial<TableLenConfig>; maxReports?: number };

/**
 * Registers the scalar-store contract and the eviction contract (LRU, LFU, FIFO, MRU) for a server store. Each
 * test gets its own table prefix / namespace, dropped after it.
 */
export function testServerStoreContracts(name: string, create: (prefix: string, options: ContractStoreOptions) => DroppableStore): void {
  const run = uniquePrefix(name.slice(0, 2));
  // The harness's testId ends with a per-test counter.
  const factory = (ctx: StoreTestContext) =>
    create(`${run}${ctx.testId.slice(-6)}_`, { tableLenConfig: ctx.tableLenConfig, maxReports: ctx.maxReports });
  const cleanup = async (ctx: StoreTestContext) => {
    const store = factory(ctx);
    await store.drop();
    await store.close();
  };
  testScalarStore({ name, persistent: true, create: factory, cleanup });
  for (const policy of ["LRU", "LFU", "FIFO", MRU]) testEvictionPolicy({ policy, createStore: factory, storeName: name, cleanup });
}

/** A loopback TCP proxy to a real service whose link can be cut (connections reset) and restored. */
export interface CuttableProxy {
  readonly port: number;
  /** Resets every open connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startProxy(targetHost: string, targetPort: number): Promise<CuttableProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  };
  const server: Server = createServer((client) => {
    track(client);
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = new Socket();
    track(upstream);
    upstream.connect(targetPort, targetHost);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      down = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      down = false;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same URL pointing at another port on 127.0.0.1 (through a proxy). */
export function viaPort(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = "127.0.0.1";
  parsed.port = String(port);
  return parsed.toString();
}
