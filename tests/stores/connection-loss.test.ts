/**
 * Connections the database drops (a failover, a DBA's pg_terminate_backend / KILL / CLIENT KILL, an idle
 * timeout) while a cache uses them: the process survives (an unhandled 'error' event would fail the test),
 * requests cut mid-way fail open (the model's answer still returned, the fault counted), and the driver
 * replaces the lost connections, so later requests succeed and hit without a restart.
 */
import mysql from "mysql2/promise";
import pg from "pg";
import { Cache } from "../../src/presets/cache.js";
import { managerFactory } from "../../src/presets/manager-factory.js";
import type { ScalarStore } from "../../src/core/contracts/scalar-store.js";
import { countingCachedModel, mysqlCutter, postgresCutter, redisCutter, type ConnectionCutter } from "../helpers/connection-cut.js";
import { TEST_URL_VARS, uniquePrefix, type DroppableStore } from "../helpers/server-stores.js";
import { waitUntil } from "../helpers/wait-until.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Time for the driver to notice connections the server closed (their sockets' close events, handled inside the
 * pool) and replace them. Nothing outside the driver tells when that is done, and a probe of the store would take
 * the first failure the test is about, so this stays a fixed wait.
 */
const DRIVER_NOTICES_MS = 200;

/**
 * Holds the live counter's row lock in an open transaction until `release`; `waiting` counts the store's
 * sessions (those of `user`: a PostgreSQL application_name, a MySQL user) waiting for a lock meanwhile.
 */
type RowLocker = (url: string, table: string, user: string) => Promise<{ waiting(): Promise<number>; release(): Promise<void> }>;

interface Backend {
  kind: string;
  service: keyof typeof TEST_URL_VARS;
  cutter: (url: string, id: string) => Promise<ConnectionCutter>;
  /** SQL stores only: lets a test park a write inside its transaction. */
  lockRow?: RowLocker;
}

const LIVE_ROW = (table: string) => `SELECT value FROM ${table} WHERE name = 'live' FOR UPDATE`;

const BACKENDS: Backend[] = [
  {
    kind: "postgres",
    service: "postgres",
    cutter: postgresCutter,
    lockRow: async (url, table, user) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("BEGIN");
      await client.query(LIVE_ROW(table));
      // Outside the locking transaction: within one, pg_stat_activity is read once and kept.
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      return {
        async waiting() {
          const sql = "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'";
          return (await watcher.query<{ n: number }>(sql, [user])).rows[0].n;
        },
        async release() {
          await watcher.end();
          await client.query("ROLLBACK");
          await client.end();
        },
      };
    },
  },
  {
    kind: "mysql",
    service: "mysql",
    cutter: mysqlCutter,
    lockRow: async (url, table, user) => {
      const connection = await mysql.createConnection({ uri: url });
      await connection.beginTransaction();
      await connection.query(LIVE_ROW(table));
      return {
        async waiting() {
          const [rows] = await connection.query(
            "SELECT count(*) AS n FROM information_schema.INNODB_TRX t JOIN information_schema.PROCESSLIST p " +
              "ON p.ID = t.trx_mysql_thread_id WHERE t.trx_state = 'LOCK WAIT' AND p.USER = ?",
            [user],
          );
          return Number((rows as Array<{ n: number }>)[0].n);
        },
        async release() {
          await connection.rollback();
          await connection.end();
        },
      };
    },
  },
  { kind: "redis", service: "redis", cutter: redisCutter },
];

for (const backend of BACKENDS) {
  const url = process.env[TEST_URL_VARS[backend.service]];
  describe(`${backend.kind} connections terminated by the server`, () => {
    if (!url) {
      process.stderr.write(`[skip] ${backend.kind} connection loss: ${TEST_URL_VARS[backend.service]} is not set\n`);
      it.skip(`needs ${TEST_URL_VARS[backend.service]}`, () => undefined);
      return;
    }
    const id = uniquePrefix(`cut${backend.kind.slice(0, 2)}`);
    const scalarParams = (target: string) => ({ url: target, tablePrefix: id, namespace: id, poolSize: 4 });
    let cutter: ConnectionCutter;
    let cache: Cache;
    let modelCalls: () => number;
    let ask: (question: string) => Promise<string>;
    let recoveries = 0;

    /** After a cut: an answer stored before hits; a new one is stored and hits in turn (one model call). */
    async function expectRecovered(): Promise<void> {
      const calls = modelCalls();
      const question = `asked after cut ${++recoveries}`;
      expect(await ask("asked before")).toBe("answer to asked before");
      expect(await ask(question)).toBe(`answer to ${question}`);
      expect(await ask(question)).toBe(`answer to ${question}`);
      expect(modelCalls()).toBe(calls + 1);
    }

    beforeAll(async () => {
      cutter = await backend.cutter(url, id);
    });
    afterAll(async () => {
      const store = managerFactory(backend.kind, { scalarParams: scalarParams(url) }).scalar as ScalarStore & DroppableStore;
      await store.init();
      await store.drop();
      await store.close();
      await cutter?.close();
    });
    beforeEach(async () => {
      cache = await new Cache().init({ dataManager: managerFactory(backend.kind, { scalarParams: scalarParams(cutter.storeUrl) }) });
      ({ ask, calls: modelCalls } = countingCachedModel(cache));
    });
    afterEach(async () => {
      await cache.close().catch(() => undefined);
    });

    it("connections cut under put load: requests fail open and are counted, then it recovers and hits", async () => {
      expect(await ask("asked before")).toBe("answer to asked before");
      let done = false;
      let asked = 0;
      // More callers than pooled connections, so the connections are busy in queries and transactions when cut.
      const callers = Array.from({ length: 8 }, async (_, caller) => {
        for (let i = 0; !done; i++) {
          const question = `caller ${caller} question ${i}`;
          expect(await ask(question)).toBe(`answer to ${question}`);
          asked++;
          // A store that fails at once (a client that is reconnecting) resolves without a turn of the event loop.
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
      let terminated = 0;
      for (let round = 0; round < 5; round++) {
        // Load between cuts: the callers get through more questions (on connections made again since the last
        // cut, or failing open while they are made) before the next cut.
        const before = asked;
        await waitUntil(() => asked >= before + 8, "the callers to ask more questions between cuts");
        terminated += await cutter.terminate();
      }
      done = true;
      await Promise.all(callers);

      expect(terminated).toBeGreaterThan(0);
      expect(asked).toBeGreaterThan(0);
      expect(cache.report.errors).toBeGreaterThan(0);
      await sleep(DRIVER_NOTICES_MS);
      await expectRecovered();
    });

    if (backend.lockRow) {
      const lockRow = backend.lockRow;
      it("a transaction cut while it waits for a row lock fails open, and the next put and get work", async () => {
        expect(await ask("asked before")).toBe("answer to asked before");
        // Holding the live counter's row lock parks the next insert inside its transaction, on a borrowed connection.
        const lock = await lockRow(url, `${id}meta`, id);
        try {
          const errors = cache.report.errors;
          let settled = false;
          const parked = ask("asked while locked").finally(() => (settled = true));
          // The insert is parked once the database shows the store's session waiting for the lock (or, should the
          // ask end first, there is nothing left to wait for).
          await waitUntil(async () => settled || (await lock.waiting()) > 0, "the insert to wait for the row lock");
          expect(await cutter.terminate()).toBeGreaterThan(0);
          expect(await parked).toBe("answer to asked while locked");
          expect(cache.report.errors).toBeGreaterThan(errors);
        } finally {
          await lock.release();
        }
        await sleep(DRIVER_NOTICES_MS);
        await expectRecovered();
      });
    }

    it("idle connections terminated by the server: the next requests work, none fails", async () => {
      expect(await ask("asked before")).toBe("answer to asked before");
      expect(await cutter.terminate()).toBeGreaterThan(0);
      await sleep(DRIVER_NOTICES_MS);
      const { errors } = cache.report;
      await expectRecovered();
      expect(cache.report.errors).toBe(errors);
    });
  });
}
