// With no TelemetryPort, the core does no telemetry work at all: every export of @opentelemetry/api is replaced by a
// recording stand-in, and a session of calls on both transports (stdio's engine and the HTTP app), in direct and AI
// mode, touches none of them.
import { describe, expect, it, vi } from "vitest";

const touched: string[] = [];

vi.mock("@opentelemetry/api", async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  const record = (name: string, v: unknown): unknown => {
    if (typeof v === "function") {
      return new Proxy(v, {
        apply: (f, self, args) => (touched.push(name), Reflect.apply(f, self, args)),
        construct: (f, args) => (touched.push(`new ${name}`), Reflect.construct(f, args)),
      });
    }
    if (typeof v === "object" && v !== null) return new Proxy(v, { get: (o, k) => (touched.push(`${name}.${String(k)}`), Reflect.get(o, k)) });
    return v;
  };
  return Object.fromEntries(Object.entries(real).map(([k, v]) => [k, record(k, v)]));
});

const { makeMotebit, owner, peer } = await import("../helpers/motebit.js");
const { nodeApp } = await import("../helpers/node-app.js");
const { ScriptedLlm } = await import("../helpers/scripted-llm.js");
const keys = (await import("../../fixtures/edge/keys.json")).default;

describe("telemetry off", () => {
  it("calls no @opentelemetry/api function on any path", async () => {
    const direct = await makeMotebit();
    await direct.call(peer(), "motebit_task", { prompt: "hi", required_capabilities: ["echo"] });
    await direct.call(peer("first_contact"), "motebit_task", { prompt: "refused" });
    await direct.call(owner, "motebit_remember", { content: "a fact" });
    await direct.call(owner, "motebit_recall", { query: "fact" });
    await direct.rpc(owner, "tools/call", { name: "echo", arguments: { text: "x" }, _meta: { traceparent: `00-${"a".repeat(32)}-${"b".repeat(16)}-01` } });
    const ai = await makeMotebit({ llm: new ScriptedLlm({ tools: [{ name: "echo", input: { text: "hi" } }] }, "done") });
    await ai.call(owner, "motebit_task", { prompt: "say hi" });
    const { app } = await nodeApp();
    const res = await app.fetch(
      new Request("http://node.test/mcp", {
        method: "POST",
        headers: { authorization: `Bearer ${keys.auth_token}`, "content-type": "application/json", accept: "application/json", traceparent: `00-${"a".repeat(32)}-${"b".repeat(16)}-01` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      }),
    );
    expect(res.status).toBe(200);
    expect(touched).toEqual([]);
  });

  it("the stand-ins do see the calls once a port is given (so the check above can fail)", async () => {
    const api = await import("@opentelemetry/api");
    const h = await makeMotebit({ telemetry: { tracer: api.trace.getTracer("t"), meter: api.metrics.getMeter("t"), captureContent: false } });
    touched.length = 0;
    await h.call(owner, "echo", { text: "x" });
    expect(touched).toContain("trace.setSpan");
  });
});
