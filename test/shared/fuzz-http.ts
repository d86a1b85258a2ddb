// Property-based fuzzing at the HTTP layer, shared by both hosts: arbitrary bodies and transport headers get an
// answer below 500, in time (fast-check's timeout), and a JSON body whenever there is a body.
// test/node/fuzz/http-node-host.test.ts and test/workerd/edge/fuzz-http.test.ts run it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParams, fuzzTimeoutMs, headerValue } from "./fuzz.js";
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

const body = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.json({ maxDepth: 6 }),
);

export function describeHttpFuzz(hostName: string, makeHost: () => Promise<Host>, env?: { FUZZ_RUNS?: string; FUZZ_SEED?: string }) {
  describe(`fuzz: HTTP requests (${hostName})`, () => {
    const check = async (h: Host, req: Request) => {
      const res = await h.fetch(req);
      expect(res.status).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(500);
      const text = await res.text();
      if (text !== "" && !(res.headers.get("Content-Type") ?? "").startsWith("text/event-stream")) expect(() => JSON.parse(text)).not.toThrow();
    };

    it("any body, on a live session, is answered below 500", async () => {
      const h = await makeHost();
      const init = await h.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: { Authorization: h.auth, "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } } }),
        }),
      );
      const session = init.headers.get("Mcp-Session-Id")!;
      await init.arrayBuffer();
      await fc.assert(
        fc.asyncProperty(body, async (b) => {
          await check(
            h,
            new Request("http://127.0.0.1/mcp", {
              method: "POST",
              headers: { Authorization: h.auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": session },
              body: b,
            }),
          );
        }),
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
