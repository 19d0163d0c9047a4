import { readFileSync } from "node:fs";
import { SERVER_ERROR_CODES } from "../../src/server/index.js";

describe("docs/server.md", () => {
  it("lists every server error code with its status and meaning, and nothing else", () => {
    const doc = readFileSync(new URL("../../docs/server.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| (SEMCACHE_\w+) \| (\d+) \| (.+) \|$/gm)];
    expect(rows.map((row) => row[1]).sort()).toEqual(Object.keys(SERVER_ERROR_CODES).sort());
    for (const [, code, status, description] of rows) {
      const entry = SERVER_ERROR_CODES[code as keyof typeof SERVER_ERROR_CODES];
      expect([Number(status), description]).toEqual([entry.statusCode, entry.description]);
    }
  });
});
