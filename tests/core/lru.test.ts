import { describe, expect, it } from "@jest/globals";
import { Lru } from "../../src/core/lru.js";

describe("Lru", () => {
  it("forgets the least recently used key first, a read counting as a use", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c"), lru.size]).toEqual([1, 3, 2]);
  });

  it("keeps a key read for at least half the capacity's writes after the read, moving it only from the older half", () => {
    const lru = new Lru<string, number>(4);
    for (const [i, key] of ["a", "b", "c", "d"].entries()) lru.set(key, i);
    // "a" is in the older half and moves to the newest end; "d", just written, stays where it is.
    expect([lru.get("a"), lru.get("d")]).toEqual([0, 3]);
    lru.set("e", 4);
    lru.set("f", 5);
    expect(["a", "b", "c", "d", "e", "f"].map((key) => lru.get(key))).toEqual([0, undefined, undefined, 3, 4, 5]);
    expect(lru.size).toBe(4);
  });

  it("keeps nothing at capacity 0", () => {
    const lru = new Lru<string, number>(0);
    lru.set("a", 1);
    expect([lru.get("a"), lru.size]).toEqual([undefined, 0]);
    expect(lru.through("a", () => 2)).toBe(2);
    expect(lru.size).toBe(0);
  });

  it("through: makes a value once and answers it from memory after", () => {
    const lru = new Lru<string, { made: number }>(4);
    let made = 0;
    const make = () => ({ made: ++made });
    const first = lru.through("a", make);
    expect(lru.through("a", make)).toBe(first);
    expect(made).toBe(1);
  });

  it("remember: concurrent callers share one promise, and a rejected one is forgotten", async () => {
    const lru = new Lru<string, Promise<number>>(4);
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error("down"));
    };
    const [a, b] = [lru.remember("k", failing), lru.remember("k", failing)];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow("down");
    expect(lru.get("k")).toBeUndefined();
    await expect(lru.remember("k", () => Promise.resolve(7))).resolves.toBe(7);
    expect(calls).toBe(1);
  });

  it("delete with an expected value leaves a newer value in place", () => {
    const lru = new Lru<string, number>(4);
    lru.set("k", 1);
    lru.set("k", 2);
    lru.delete("k", 1);
    expect(lru.get("k")).toBe(2);
    lru.delete("k");
    expect(lru.get("k")).toBeUndefined();
  });
});
