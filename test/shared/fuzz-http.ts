// Property-based fuzzing at the HTTP layer, shared by both hosts: arbitrary bodies and transport headers get an
// answer below 500, in time (fast-check's timeout), and a JSON body whenever there is a body.
// test/node/fuzz/http-node-host.test.ts and test/workerd/edge/fuzz-http.test.ts run it.
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { fuzzParams, fuzzTimeoutMs, headerValue, hostileObject, hostileValue } from "./fuzz.js";
import type { Host } from "./hostile-requests.js";

const METHODS = ["initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read", "prompts/list", "prompts/get", "notifications/initialized", "completion/complete"];
const TOOLS = ["motebit_task", "motebit_remember", "motebit_recall", "motebit_query", "motebit_identity", "motebit_tools", "echo", "word_count", "read_note"];

const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.jsonValue({ maxDepth: 0 })),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null)),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 40 })),
    params: fc.oneof(
      fc.record({ name: fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 20 })), arguments: fc.jsonValue({ maxDepth: 4 }) }, { requiredKeys: [] }),
      fc.record({ uri: fc.string({ maxLength: 40 }), protocolVersion: fc.string({ maxLength: 12 }) }, { requiredKeys: [] }),
      fc.jsonValue({ maxDepth: 4 }),
    ),
  },
  { requiredKeys: [] },
);

const value = fc.oneof(hostileValue, hostileObject);

/**
 * Requests, notifications and client replies with a hostile value in one client-controlled field each: every
 * field the MCP schema gives a client (method params, ids, _meta, cancellation, a reply's result and error).
 */
const hostileMessage = fc.oneof(
  fc.record({ method: fc.constantFrom("tools/call", "prompts/get"), name: value, arguments: fc.oneof(value, hostileObject) }).map((r) => ({ jsonrpc: "2.0", id: 1, method: r.method, params: { name: r.name, arguments: r.arguments } })),
  fc.record({ tool: fc.constantFrom(...TOOLS), arguments: hostileObject }).map((r) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: r.tool, arguments: r.arguments } })),
  fc.record({ field: fc.constantFrom("prompt", "delegation_token", "required_capabilities", "relay_task_id", "dispatch_token"), v: value }).map((r) => ({
    jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "p", [r.field]: r.v } },
  })),
  fc.record({ method: fc.constantFrom("resources/read", "resources/subscribe", "resources/unsubscribe"), uri: value }).map((r) => ({ jsonrpc: "2.0", id: 4, method: r.method, params: { uri: r.uri } })),
  fc.record({ method: fc.constantFrom(...METHODS, "logging/setLevel", "tools/list", "resources/templates/list"), params: fc.oneof(value, hostileObject), id: value }).map((r) => ({ jsonrpc: "2.0", id: r.id, method: r.method, params: r.params })),
  fc.record({ meta: fc.oneof(value, hostileObject), token: value }).map((r) => ({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { text: "t" }, _meta: { ...(r.meta as object), progressToken: r.token } } })),
  fc.record({ ref: fc.oneof(value, hostileObject), argument: fc.oneof(value, hostileObject) }).map((r) => ({ jsonrpc: "2.0", id: 6, method: "completion/complete", params: { ref: r.ref, argument: r.argument } })),
  fc.record({ requestId: value, reason: value }).map((r) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: r.requestId, reason: r.reason } })),
  fc.record({ id: value, message: value, code: value, result: fc.oneof(value, hostileObject) }).chain((r) =>
    fc.constantFrom({ jsonrpc: "2.0", id: r.id, result: r.result }, { jsonrpc: "2.0", id: r.id, error: { code: r.code, message: r.message } }, { jsonrpc: "2.0", id: 1, error: { code: -1, message: r.message } }),
  ),
  fc.record({ jsonrpc: value, id: value, method: value }).map((r) => ({ jsonrpc: r.jsonrpc, id: r.id, method: r.method, params: {} })),
);

const body = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.json({ maxDepth: 6 }),
);

export function describeHttpFuzz(hostName: string, makeHost: () => Promise<Host>, env?: { FUZZ_RUNS?: string; FUZZ_SEED?: string }) {
  describe(`fuzz: HTTP requests (${hostName})`, () => {
    // Every request the properties sent (shrinking included): the figure `npm run fuzz` reports per host.
    let sent = 0;
    afterAll(() => console.log(`fuzz: ${sent} HTTP requests sent to the ${hostName} (FUZZ_RUNS=${env?.FUZZ_RUNS || "default"}, FUZZ_SEED=${env?.FUZZ_SEED || "default"})`));
    const check = async (h: Host, req: Request) => {
      sent++;
      const res = await h.fetch(req);
      // The hosts run with the rate limit off: a 429 would mean the inputs stopped reaching the handlers.
      expect(res.status).not.toBe(429);
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(500);
      const text = await res.text();
      if (text !== "" && !(res.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) expect(() => JSON.parse(text)).not.toThrow();
      // Client input is never our internal error: a wrong type is -32602 naming the field.
      expect(text).not.toContain('"code":-32603');
    };

    /** A live 2025-03-26 session for the properties that post into one. */
    const openSession = async (h: Host, capabilities: Record<string, unknown>): Promise<string> => {
      const init = await h.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { Authorization: h.auth, "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities, clientInfo: { name: "fuzz", version: "1" } } }),
        }),
      );
      await init.arrayBuffer();
      return init.headers.get("Mcp-Session-Id")!;
    };
    const onSession = (h: Host, session: string, body: string) =>
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { Authorization: h.auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": session },
        body,
      });

    it("any body, on a live session, is answered below 500", async () => {
      const h = await makeHost();
      const session = await openSession(h, {});
      await fc.assert(
        fc.asyncProperty(body, (b) => check(h, onSession(h, session, b))),
        fuzzParams(40, env),
      );
    }, fuzzTimeoutMs(env));

    it("hostile JS values (toString/valueOf objects, __proto__ keys, huge and deep values) in every client field are answered below 500", async () => {
      const h = await makeHost();
      const session = await openSession(h, { elicitation: {}, sampling: {} });
      await fc.assert(
        fc.asyncProperty(hostileMessage, (m) => check(h, onSession(h, session, JSON.stringify(m)))),
        fuzzParams(40, env),
      );
    }, fuzzTimeoutMs(env));

    it("any transport headers are answered below 500", async () => {
      const h = await makeHost();
      const headers = fc.record(
        {
          Authorization: fc.oneof(fc.constant(h.auth), headerValue(), headerValue().map((v) => `Bearer motebit:${v}`)),
          Accept: fc.oneof(fc.constantFrom("application/json", "text/event-stream", "*/*", "application/json;q=0"), headerValue()),
          "Content-Type": fc.oneof(fc.constant("application/json"), headerValue()),
          "MCP-Protocol-Version": fc.oneof(fc.constantFrom("2025-03-26", "2025-06-18"), headerValue()),
          "Mcp-Session-Id": headerValue(64),
          Origin: fc.oneof(fc.constantFrom("http://127.0.0.1:3100", "https://app.example.com", "null"), headerValue()),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(headers, fc.constantFrom("POST", "DELETE", "GET", "PUT"), body, async (hs, method, b) => {
          // fetch trims header values; trimmed values are what a server sees anyway.
          await check(h, new Request("http://127.0.0.1/mcp", { method, headers: hs, body: method === "POST" || method === "PUT" ? b : undefined }));
        }),
        fuzzParams(40, env),
      );
    }, fuzzTimeoutMs(env));
  });
}
