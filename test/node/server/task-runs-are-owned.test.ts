// Who may run a stored task (issue 30): the host kind is part of the run — an owner's task (made over stdio)
// resumes only in an owner host, a peer's in any host — and a run that lost its lease to another writes nothing.
import { describe, expect, it } from "vitest";
import type { MessageHandler } from "../../../src/mcp/engine/message-handler.js";
import type { JsonRpcResponse } from "../../../src/mcp/jsonrpc.js";
import { OWNER, type Principal } from "../../../src/principal.js";
import { systemClock } from "../../../src/ports.js";
import { sessionEngineFor } from "../../../src/mcp/engine/session-engine-for-host.js";
import { McpTaskStore } from "../../../src/mcp/engine/mcp-task-store.js";
import { leasesLapse } from "../helpers/host-crash.js";
import { memorySql } from "../helpers/sqlite.js";

const PEER: Principal = { kind: "peer", callerId: "caller-a", via: "signed_token", trust: "verified" };
const ENVELOPE = { protocolVersion: "2026-07-28", clientCapabilities: {}, logLevel: null };

/** A handler that logs which principal each run was for and answers when the test says. */
function recorder() {
  const runs: { principal: Principal; answer: (text: string) => void }[] = [];
  const motebit: MessageHandler = {
    handleClassified: (message, ctx) =>
      new Promise<JsonRpcResponse>((resolve) =>
        runs.push({ principal: ctx.principal, answer: (text) => resolve({ jsonrpc: "2.0", id: (message.message as { id: string }).id, result: { content: [{ type: "text", text }] } }) }),
      ),
  };
  return { motebit, runs };
}

function storedTask(principal: Principal) {
  const sql = memorySql();
  const store = new McpTaskStore(sql, systemClock);
  store.migrate();
  const row = store.insert({ taskId: "t1", principal, envelope: ENVELOPE, tool: "echo", args: {}, ttlMs: 60_000 });
  return { sql, store, id: row.taskId };
}

describe("task runs are owned", () => {
  it("an owner's task left working resumes in an owner host, never in a peer (HTTP) host", () => {
    const { sql } = storedTask(OWNER);
    const http = recorder();
    sessionEngineFor(sql, systemClock, http.motebit, { host: "peer" });
    expect(http.runs).toHaveLength(0);
    const stdio = recorder();
    sessionEngineFor(sql, systemClock, stdio.motebit, { host: "owner" });
    expect(stdio.runs.map((r) => r.principal)).toEqual([OWNER]);
  });

  it("a peer's task resumes in either kind of host", () => {
    for (const host of ["peer", "owner"] as const) {
      const { sql } = storedTask(PEER);
      const h = recorder();
      sessionEngineFor(sql, systemClock, h.motebit, { host });
      expect(h.runs.map((r) => r.principal)).toEqual([PEER]);
    }
  });

  it("a second host leaves a task with a live lease alone; once the lease lapses it takes the task, and the old run's end is not written", async () => {
    const { sql, store, id } = storedTask(PEER);
    const first = recorder();
    sessionEngineFor(sql, systemClock, first.motebit, { host: "peer" });
    const second = recorder();
    sessionEngineFor(sql, systemClock, second.motebit, { host: "peer" });
    expect([first.runs.length, second.runs.length]).toEqual([1, 0]);

    leasesLapse(sql);
    const third = recorder();
    sessionEngineFor(sql, systemClock, third.motebit, { host: "peer" });
    expect(third.runs).toHaveLength(1);
    // Stored without a run (as a dead host leaves it), the row was resumed once already: this is its third start.
    expect(store.get(id)?.attempts).toBe(3);
    first.runs[0].answer("from the run that lost its lease");
    third.runs[0].answer("from the run that holds it");
    await new Promise((r) => setTimeout(r, 10));
    const t = store.get(id)!;
    expect(t.status).toBe("completed");
    expect((t.result!.content as { text: string }[])[0].text).toBe("from the run that holds it");
  });
});
