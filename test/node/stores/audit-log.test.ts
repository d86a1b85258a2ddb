import { describe, expect, it } from "vitest";
import { argsPreview, AuditLog } from "../../../src/policy/audit-log.js";
import { memorySql } from "../helpers/sqlite.js";

describe("AuditLog", () => {
  it("records decisions and lists them newest first", () => {
    const log = new AuditLog(memorySql());
    log.migrate();
    log.migrate();
    log.record({ tool: "echo", caller: "peer:a", args: { text: "hi" }, outcome: "allowed", at: 100 });
    log.record({ tool: "pay", caller: "peer:a", args: { amount: 5 }, outcome: "denied", at: 200 });
    log.record({ tool: "shell", caller: "peer:b", args: {}, outcome: "approval_required", at: 200 });
    const rows = log.list();
    expect(rows.map(({ id: _id, ...r }) => r)).toEqual([
      { at: 200, tool: "shell", caller: "peer:b", argsPreview: "{}", outcome: "approval_required" },
      { at: 200, tool: "pay", caller: "peer:a", argsPreview: '{"amount":5}', outcome: "denied" },
      { at: 100, tool: "echo", caller: "peer:a", argsPreview: '{"text":"hi"}', outcome: "allowed" },
    ]);
    expect(log.list({ limit: 1 })).toHaveLength(1);
  });

  it("keeps only the first 200 characters of the arguments", () => {
    const log = new AuditLog(memorySql());
    log.migrate();
    const args = { text: "x".repeat(1000) };
    log.record({ tool: "echo", caller: "owner", args, outcome: "error", at: 1 });
    const [row] = log.list();
    expect(row.argsPreview).toBe(JSON.stringify(args).slice(0, 200));
    expect(row.argsPreview).toHaveLength(200);
  });
});

describe("argsPreview", () => {
  it("never splits a surrogate pair", () => {
    const args = { t: "a".repeat(193) + "😀" }; // {"t":" is 6 chars, so the emoji's halves land at indices 199 and 200
    const preview = argsPreview(args);
    expect(preview).toHaveLength(199);
    expect(preview.endsWith("a")).toBe(true);
  });

  it("survives arguments that cannot be serialised", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(argsPreview(cyclic)).toBe("[unserialisable arguments]");
    expect(argsPreview(undefined)).toBe("");
  });

  it("keeps only the newest entries once it grows past its cap", () => {
    const sql = memorySql();
    const log = new AuditLog(sql, 10);
    log.migrate();
    for (let i = 1; i <= 25; i++) log.record({ tool: `t${i}`, caller: "owner", args: {}, outcome: "allowed", at: i });
    const count = () => sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log")[0].n;
    expect(count()).toBeLessThanOrEqual(10 + 10);
    expect(log.list({ limit: 10 }).map((e) => e.tool)).toEqual(Array.from({ length: 10 }, (_, k) => `t${25 - k}`));
    for (let i = 26; i <= 30; i++) log.record({ tool: `t${i}`, caller: "owner", args: {}, outcome: "allowed", at: i });
    expect(count()).toBe(10);
    expect(log.list().at(-1)?.tool).toBe("t21");
  });
});
