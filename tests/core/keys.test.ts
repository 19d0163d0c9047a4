import { createHash } from "node:crypto";
import { keyHash } from "../../src/core/keys.js";

/** The digest every store holds for a key (written by earlier versions too): SHA-1 of partition NUL text. */
const stored = (partition: string, text: string) => createHash("sha1").update(`${partition}\u0000${text}`).digest("base64url");

describe("keyHash", () => {
  it("gives the stored digest for short keys, asked once or again, and for long keys", () => {
    const long = "a long prompt ".repeat(100);
    for (const [partition, text] of [["", "hello"], ["p1", "hello"], ["", long], ["p1", long]]) {
      expect(keyHash(partition, text)).toBe(stored(partition, text));
      expect(keyHash(partition, text)).toBe(stored(partition, text));
    }
  });

  it("keeps partitions and texts apart, also once the recent digests are full", () => {
    for (let i = 0; i < 5000; i++) keyHash("", `question ${i}`);
    expect(keyHash("", "question 1")).toBe(stored("", "question 1"));
    expect(keyHash("x", "question 1")).toBe(stored("x", "question 1"));
    expect(keyHash("x", "question 1")).not.toBe(keyHash("", "question 1"));
    expect(keyHash("", "question 4999")).toBe(stored("", "question 4999"));
  });
});
