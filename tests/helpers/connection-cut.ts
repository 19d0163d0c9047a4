/**
 * Server-side termination of a store's connections (what a failover, a DBA, an idle timeout or a Redis
 * CLIENT KILL does), from an admin connection, aimed at exactly the store's connections so the other tests
 * sharing the service are left alone: PostgreSQL marks them with an application_name; MySQL/MariaDB and Redis
 * with a user made for the test (dropped again by close()). And a proxy whose connections fall silent.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import mysql from "mysql2/promise";
import pg from "pg";
import { createClient } from "redis";
import { cached } from "../../src/adapters/function.js";
import type { Cache } from "../../src/presets/cache.js";

export interface ConnectionCutter {
  /** The URL the store connects with: its connections are the ones terminate() cuts. */
  readonly storeUrl: string;
  /** Terminates every connection of the store; resolves with how many there were. */
  terminate(): Promise<number>;
  close(): Promise<void>;
}

/** PostgreSQL: the store connects with `application_name` = `id`; terminate() waits until the backends exited. */
export async function postgresCutter(url: string, id: string): Promise<ConnectionCutter> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const storeUrl = new URL(url);
  storeUrl.searchParams.set("application_name", id);
  return {
    storeUrl: storeUrl.toString(),
    async terminate() {
      const { rows } = await admin.query(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity " +
          "WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1",
        [id],
      );
      return rows.length;
    },
    close: () => admin.end(),
  };
}

/** MySQL/MariaDB: the store connects as a user `id`@127.0.0.1 with every privilege on the test database. */
export async function mysqlCutter(url: string, id: string): Promise<ConnectionCutter> {
  const admin = await mysql.createConnection({ uri: url });
  const database = new URL(url).pathname.slice(1);
  await admin.query("CREATE USER ?@'127.0.0.1' IDENTIFIED BY ?", [id, id]);
  await admin.query(`GRANT ALL ON \`${database}\`.* TO ?@'127.0.0.1'`, [id]);
  const storeUrl = new URL(url);
  storeUrl.hostname = "127.0.0.1";
  storeUrl.username = id;
  storeUrl.password = id;
  return {
    storeUrl: storeUrl.toString(),
    async terminate() {
      const [rows] = await admin.query("SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER = ?", [id]);
      const ids = (rows as Array<{ id: number }>).map((row) => row.id);
      // One may have ended meanwhile ("Unknown thread id").
      for (const thread of ids) await admin.query(`KILL CONNECTION ${Number(thread)}`).catch(() => undefined);
      return ids.length;
    },
    async close() {
      await admin.query("DROP USER IF EXISTS ?@'127.0.0.1'", [id]);
      await admin.end();
    },
  };
}

/** Redis: the store connects as an ACL user `id` allowed everything; terminate() is CLIENT KILL USER. */
export async function redisCutter(url: string, id: string): Promise<ConnectionCutter> {
  const admin = createClient({ url });
  await admin.connect();
  await admin.sendCommand(["ACL", "SETUSER", id, "on", `>${id}`, "~*", "&*", "+@all"]);
  const storeUrl = new URL(url);
  storeUrl.username = id;
  storeUrl.password = id;
  return {
    storeUrl: storeUrl.toString(),
    terminate: async () => Number(await admin.sendCommand(["CLIENT", "KILL", "USER", id])),
    async close() {
      await admin.sendCommand(["ACL", "DELUSER", id]);
      await admin.close();
    },
  };
}

/**
 * A loopback TCP proxy in front of a real service that can go silent, as a hung server or a black-holed route
 * does: connections stay open and accept bytes, but nothing is forwarded either way, and nothing is closed.
 */
export interface SilenceableProxy {
  readonly port: number;
  /** Open connections fall silent, and so does every connection made until restore(). */
  silence(): void;
  /** New connections are forwarded again; the silenced ones stay silent (a driver must drop, not reuse them). */
  restore(): void;
  /** Bytes clients sent on silenced connections (requests that will never be answered). */
  readonly swallowedBytes: number;
  close(): Promise<void>;
}

export async function silenceableProxy(targetHost: string, targetPort: number): Promise<SilenceableProxy> {
  const links = new Set<{ silent: boolean; sockets: Socket[] }>();
  let silent = false;
  let swallowed = 0;
  const server: Server = createServer((client) => {
    const link = { silent, sockets: [client] };
    links.add(link);
    client.on("error", () => undefined);
    client.on("close", () => {
      links.delete(link);
      for (const socket of link.sockets) socket.destroy();
    });
    // A connection made while silent never reaches the service: the driver's handshake gets no answer.
    if (link.silent) return;
    const upstream = connect(targetPort, targetHost);
    link.sockets.push(upstream);
    upstream.on("error", () => undefined);
    upstream.on("close", () => client.destroy());
    client.on("data", (chunk: Buffer) => (link.silent ? (swallowed += chunk.length) : upstream.write(chunk)));
    upstream.on("data", (chunk) => link.silent || client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    silence() {
      silent = true;
      for (const link of links) link.silent = true;
    },
    restore() {
      silent = false;
    },
    get swallowedBytes() {
      return swallowed;
    },
    close() {
      for (const link of links) for (const socket of link.sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `cached()` on `cache` over a model that answers "answer to QUESTION" and counts its calls. */
export function countingCachedModel(cache: Cache): { ask: (question: string) => Promise<string>; calls: () => number } {
  let calls = 0;
  const ask = cached(
    async (question: string) => {
      calls++;
      return `answer to ${question}`;
    },
    { requestOptions: { cacheObj: cache } },
  );
  return { ask, calls: () => calls };
}
