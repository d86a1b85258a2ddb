import { describe, expect, it } from "vitest";
import { SessionStore } from "../../../src/server/session-store.js";
import { memorySql } from "../helpers/sqlite.js";
import { fakeClock } from "./fake-clock.js";

function store(o: { ttlMs?: number; maxPerCaller?: number } = {}) {
  const sql = memorySql();
  const clock = fakeClock();
  const make = () => new SessionStore(sql, clock, { ttlMs: o.ttlMs ?? 30 * 60_000, maxPerCaller: o.maxPerCaller ?? 32 });
  const s = make();
  s.migrate();
  return { s, clock, make };
}

describe("session store", () => {
  it("issues 128-bit visible-ASCII ids bound to the caller that opened them", () => {
    const { s } = store();
    const id = s.open("alice");
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(s.open("alice")).not.toBe(id);
    expect(s.use(id, "alice")).toBe(true);
    expect(s.use(id, "bob")).toBe(false);
    expect(s.use("not-a-session", "alice")).toBe(false);
  });

  it("expires after the idle TTL, and each use restarts the TTL", () => {
    const { s, clock } = store({ ttlMs: 1000 });
    const id = s.open("alice");
    clock.advance(900);
    expect(s.use(id, "alice")).toBe(true);
    clock.advance(900);
    expect(s.use(id, "alice")).toBe(true);
    clock.advance(1000);
    expect(s.use(id, "alice")).toBe(false);
  });

  it("closes a session only for its own caller, once", () => {
    const { s } = store();
    const id = s.open("alice");
    expect(s.close(id, "bob")).toBe(false);
    expect(s.close(id, "alice")).toBe(true);
    expect(s.close(id, "alice")).toBe(false);
    expect(s.use(id, "alice")).toBe(false);
  });

  it("beyond the per-caller cap evicts that caller's least recently used session, never another caller's", () => {
    const { s, clock } = store({ maxPerCaller: 3 });
    const bob = s.open("bob");
    const ids = [1, 2, 3].map(() => {
      clock.advance(10);
      return s.open("alice");
    });
    clock.advance(10);
    s.use(ids[0], "alice"); // now ids[1] is the least recently used
    clock.advance(10);
    const fourth = s.open("alice");
    expect(s.use(ids[1], "alice")).toBe(false);
    for (const id of [ids[0], ids[2], fourth]) expect(s.use(id, "alice")).toBe(true);
    expect(s.use(bob, "bob")).toBe(true);
  });

  it("sessions are rows: a new store over the same database still knows them", () => {
    const { s, make } = store();
    const id = s.open("alice");
    const reopened = make();
    reopened.migrate();
    expect(reopened.use(id, "alice")).toBe(true);
  });
});
