import { describe, expect, it } from "vitest";
import { ReplayStore } from "../../../src/callers/replay-store.js";
import { memorySql } from "../helpers/sqlite.js";
import { fakeClock } from "./fake-clock.js";

describe("jti replay store", () => {
  it("accepts a jti once, then refuses it until it may be forgotten", () => {
    const sql = memorySql();
    const clock = fakeClock();
    const r = new ReplayStore(sql, clock);
    r.migrate();
    const keepUntil = clock.now() + 120_000;
    expect(r.consume("j-1", keepUntil)).toBe(true);
    expect(r.consume("j-1", keepUntil)).toBe(false);
    expect(r.consume("j-2", keepUntil)).toBe(true);
    clock.advance(119_000);
    expect(r.consume("j-1", keepUntil)).toBe(false);
    // Past keep_until the token itself is expired; a row that old no longer blocks the jti.
    clock.advance(2_000);
    expect(r.consume("j-1", clock.now() + 60_000)).toBe(true);
    expect(r.consume("j-1", clock.now() + 60_000)).toBe(false);
  });

  it("prunes rows past keep_until", () => {
    const sql = memorySql();
    const clock = fakeClock();
    const r = new ReplayStore(sql, clock);
    r.migrate();
    r.consume("old", clock.now() + 1_000);
    clock.advance(61_000);
    r.consume("new", clock.now() + 1_000);
    expect(sql.all<{ jti: string }>("SELECT jti FROM jti_seen").map((x) => x.jti)).toEqual(["new"]);
  });

  it("survives a restart: a new store over the same database still refuses the jti", () => {
    const sql = memorySql();
    const clock = fakeClock();
    const r = new ReplayStore(sql, clock);
    r.migrate();
    r.consume("j", clock.now() + 60_000);
    const again = new ReplayStore(sql, clock);
    again.migrate();
    expect(again.consume("j", clock.now() + 60_000)).toBe(false);
  });
});
