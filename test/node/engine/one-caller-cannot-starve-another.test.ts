// One caller at its limits cannot deny elicitation or tasks to another (issue 19 item 4), and a dropped
// connection frees its waits. Driven through the session engine exactly as the HTTP and stdio adapters drive it.
import { afterEach, describe, expect, it } from "vitest";
import type { Conduit, Received, SessionEngine } from "../../../src/mcp/engine/session-engine.js";
import type { MessageHandler } from "../../../src/mcp/engine/message-handler.js";
import { TASKS_CEILING, TASKS_PER_CALLER, WAITS_PER_CALLER } from "../../../src/mcp/engine/limits.js";
import type { JsonRpcResponse } from "../../../src/mcp/jsonrpc.js";
import { newSessionState } from "../../../src/mcp/session.js";
import { systemClock } from "../../../src/ports.js";
import type { Principal } from "../../../src/principal.js";
import { sessionEngineFor } from "../../../src/mcp/engine/session-engine-for-host.js";
import { memorySql } from "../helpers/sqlite.js";

const peer = (callerId: string): Principal => ({ kind: "peer", callerId, via: "static_token", trust: "verified" });
const A = peer("static");
const B = peer("34750f98-bd59-8cfc-946d-a45aaabe933b");
const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

// tools/call "ask" elicits and answers with what happened; "hold" (as a task) runs until aborted.
const motebit: MessageHandler = {
  async handleClassified(message, ctx) {
    const m = message.message as { id: number; method: string; params: { name?: string; arguments?: unknown } };
    if (m.method !== "tools/call") return null;
    if (ctx.call?.startTask && ctx.call.taskAnswers === undefined) {
      try {
        return { jsonrpc: "2.0", id: m.id, result: await ctx.call.startTask(m.params.name!, m.params.arguments) };
      } catch (e) {
        return { jsonrpc: "2.0", id: m.id, error: { code: -32000, message: (e as Error).message } };
      }
    }
    if (m.params.name === "hold") {
      await new Promise((r) => ctx.signal.addEventListener("abort", r, { once: true }));
      return { jsonrpc: "2.0", id: m.id, result: { content: [] } };
    }
    try {
      const answer = await ctx.channel.request("elicitation/create", { message: "?" }, ctx.signal);
      return { jsonrpc: "2.0", id: m.id, result: { asked: answer } };
    } catch (e) {
      return { jsonrpc: "2.0", id: m.id, result: { refused: (e as Error).message } };
    }
  },
};

let conduits = 0;
const dropAll: AbortController[] = [];
afterEach(() => dropAll.splice(0).forEach((c) => c.abort()));

/** A conduit like an HTTP session's SSE POST: what was sent to the client, and a way to drop it. */
function conduit(): Conduit & { sent: { id?: string; method?: string }[]; drop(): void } {
  const dropped = new AbortController();
  dropAll.push(dropped);
  const sent: { id?: string }[] = [];
  return { scope: `c${++conduits}`, session: newSessionState(), send: (m) => (sent.push(m as never), true), cannotAsk: null, closed: dropped.signal, sent, drop: () => dropped.abort() };
}

/** A request's answer (receive's tagged result: a request is never judged malformed there). */
const answer = (r: Received) => (r.type === "answer" ? r.response : r.error);

const ask = (engine: SessionEngine, who: Principal, c: Conduit, id: number) =>
  engine.receive({ principal: who, kind: "request", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask" } }, envelope: null }, c).then(answer);

const startTask = (engine: SessionEngine, who: Principal, id: number) =>
  engine.receive(
    { principal: who, kind: "request", message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "hold", arguments: {} } }, envelope: { protocolVersion: V, clientCapabilities: TASKS, logLevel: null } },
    conduit(),
  ).then(answer) as Promise<JsonRpcResponse & { result?: Record<string, unknown>; error?: { message: string } }>;

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("one caller cannot starve another", () => {
  it("elicitation: a caller at its limit is refused, another caller is still asked, and dropped connections free the waits", async () => {
    const engine = sessionEngineFor(memorySql(), systemClock, motebit, { host: "peer" });
    const a = Array.from({ length: WAITS_PER_CALLER }, () => conduit());
    const pending = a.map((c, i) => ask(engine, A, c, i));
    await settle();
    expect(engine.waitsHeldBy(A)).toBe(WAITS_PER_CALLER);

    const extra = conduit();
    expect((await ask(engine, A, extra, 999)) as unknown).toMatchObject({ result: { refused: `too many server-to-client requests waiting for this caller (limit ${WAITS_PER_CALLER})` } });
    expect(extra.sent).toEqual([]);

    // B's question goes out, and B's answer reaches B's call.
    const b = conduit();
    const bCall = ask(engine, B, b, 1);
    await settle();
    expect(b.sent).toHaveLength(1);
    await engine.receive({ principal: B, kind: "response", message: { jsonrpc: "2.0", id: b.sent[0].id, result: { action: "accept" } }, envelope: null }, b);
    expect((await bCall) as unknown).toMatchObject({ result: { asked: { action: "accept" } } });

    // A drops every connection: nothing of A's waits any more, and A may ask again.
    a.forEach((c) => c.drop());
    await Promise.all(pending);
    expect(engine.waitsHeldBy(A)).toBe(0);
    const again = conduit();
    void ask(engine, A, again, 1000);
    await settle();
    expect(again.sent).toHaveLength(1);
  });

  it("an answer sent on another conduit does not reach the call", async () => {
    const engine = sessionEngineFor(memorySql(), systemClock, motebit, { host: "peer" });
    const mine = conduit();
    const call = ask(engine, A, mine, 1);
    await settle();
    await engine.receive({ principal: A, kind: "response", message: { jsonrpc: "2.0", id: mine.sent[0].id, result: { action: "forged" } }, envelope: null }, conduit());
    await engine.receive({ principal: A, kind: "response", message: { jsonrpc: "2.0", id: mine.sent[0].id, result: { action: "accept" } }, envelope: null }, mine);
    expect((await call) as unknown).toMatchObject({ result: { asked: { action: "accept" } } });
  });

  it("tasks: a caller at its limit is refused, another caller's task still starts", async () => {
    const engine = sessionEngineFor(memorySql(), systemClock, motebit, { host: "peer" });
    for (let i = 0; i < TASKS_PER_CALLER; i++) expect((await startTask(engine, A, i)).result).toMatchObject({ resultType: "task", status: "working" });
    const refused = await startTask(engine, A, 100);
    expect(refused.error?.message).toMatch(`Too many tasks running for this caller (limit ${TASKS_PER_CALLER})`);
    expect((await startTask(engine, B, 1)).result).toMatchObject({ resultType: "task", status: "working" });
  });

  it("tasks: the host ceiling takes several callers to reach", async () => {
    const engine = sessionEngineFor(memorySql(), systemClock, motebit, { host: "peer" });
    const callers = Math.ceil(TASKS_CEILING / TASKS_PER_CALLER);
    expect(callers).toBeGreaterThan(1);
    let started = 0;
    for (let c = 0; c < callers; c++) {
      for (let i = 0; i < TASKS_PER_CALLER && started < TASKS_CEILING; i++, started++) {
        expect((await startTask(engine, peer(`caller-${c}`), i)).result).toMatchObject({ resultType: "task" });
      }
    }
    expect((await startTask(engine, peer("latecomer"), 1)).error?.message).toMatch(`Too many tasks running on this host (limit ${TASKS_CEILING})`);
  });
});
