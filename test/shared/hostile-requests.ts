// Hostile requests both HTTP hosts must refuse the same way, with a 4xx and a reason, before any state is
// touched: deep nesting, non-JSON bodies, bodies that end early, and inputs long enough to bloat an echo.
// test/node/server/hostile-requests.test.ts runs it against the Node host's app in-process,
// test/workerd/edge/hostile-requests.test.ts against the real Worker and Durable Object.
import { describe, expect, it } from "vitest";
import { MAX_ECHO_CHARS } from "../../src/bounded/echo.js";
import { MAX_JSON_DEPTH } from "../../src/mcp/json-depth.js";

export interface Host {
  fetch(request: Request): Promise<Response>;
  /** The static bearer token's header value. */
  auth: string;
  /** A fresh `Bearer motebit:…` header value with the given jti. */
  signedAuth(jti: string): Promise<string>;
  /** How many rows a table of the motebit's state holds. */
  rows(table: "jti_seen" | "mcp_sessions" | "receipts" | "audit_log"): Promise<number>;
  /**
   * How a body cut off half-way reaches this host. Node sees the stream fail ("error"). workerd hands the Worker the
   * bytes that arrived and an end whatever the cut, and reports an errored source stream as an uncaught exception on
   * the test run's output, so there the body simply ends ("end"). Default "error".
   */
  cutBody?: "error" | "end";
}

const URL_MCP = "http://127.0.0.1/mcp";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
};

/** `levels` nested arrays, as JSON text. */
export const nested = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);

function request(h: Host, body: BodyInit, o: { session?: string; headers?: Record<string, string>; auth?: string } = {}): Request {
  const headers = new Headers({ Authorization: o.auth ?? h.auth, Accept: "application/json", "Content-Type": "application/json", ...o.headers });
  if (o.session) headers.set("Mcp-Session-Id", o.session);
  return new Request(URL_MCP, { method: "POST", headers, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
}

async function open(h: Host): Promise<string> {
  const res = await h.fetch(request(h, JSON.stringify(INITIALIZE)));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get("Mcp-Session-Id")!;
}

async function errorOf(res: Response): Promise<{ code: number; message: string }> {
  return ((await res.json()) as { error: { code: number; message: string } }).error;
}

export function describeHostileRequests(hostName: string, makeHost: () => Promise<Host>) {
  describe(`hostile requests (${hostName})`, () => {
    it(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is a 400 saying why, in tool arguments and initialize params alike`, async () => {
      const h = await makeHost();
      const session = await open(h);
      const deepArgs = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","n":${nested(MAX_JSON_DEPTH)}}}}`;
      const deepInit = `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"x":${nested(5_000)}}}`;
      for (const body of [deepArgs, deepInit]) {
        const res = await h.fetch(request(h, body, { session }));
        expect(res.status).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe(-32600);
        expect(error.message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      }
    });

    it(`exactly ${MAX_JSON_DEPTH} levels is served, and brackets inside strings do not count`, async () => {
      const h = await makeHost();
      const session = await open(h);
      // envelope (1) + params (2) + MAX - 2 arrays = MAX levels
      const atLimit = `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":${nested(MAX_JSON_DEPTH - 2)}}}`;
      expect((await h.fetch(request(h, atLimit, { session }))).status).toBe(200);
      const inString = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping", params: { s: `\\"${"[{".repeat(10_000)}` } });
      expect((await h.fetch(request(h, inString, { session }))).status).toBe(200);
    });

    it("a POST whose Content-Type is not JSON is a 415; JSON with parameters or any case is served", async () => {
      const h = await makeHost();
      const session = await open(h);
      const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"]) {
        const res = await h.fetch(request(h, ping, { session, headers: { "Content-Type": type } }));
        expect(res.status, type).toBe(415);
        expect((await errorOf(res)).message).toContain("application/json");
      }
      for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/vnd.api+json"]) {
        expect((await h.fetch(request(h, ping, { session, headers: { "Content-Type": type } }))).status, type).toBe(200);
      }
    });

    it(`error messages repeat at most ${MAX_ECHO_CHARS} characters of what the caller sent`, async () => {
      const h = await makeHost();
      const session = await open(h);
      const huge = "m".repeat(200_000);
      const cases: Request[] = [
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 2, method: huge }), { session }),
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: huge, arguments: {} } }), { session }),
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 4, method: "prompts/get", params: { name: huge } }), { session }),
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: huge } }), { session }),
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping" }), { session, headers: { "MCP-Protocol-Version": "v".repeat(6_000) } }),
        request(h, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }), { session, headers: { "Content-Type": `text/${"p".repeat(6_000)}` } }),
      ];
      for (const req of cases) {
        const res = await h.fetch(req);
        expect(res.status).toBeLessThan(500);
        const text = await res.text();
        expect(text.length).toBeLessThan(400);
        expect(text).toContain("…");
      }
    });

    it("a body that ends before it is complete is a 400 and leaves nothing behind: no jti consumed, no session, no audit", async () => {
      const h = await makeHost();
      const before = { jti: await h.rows("jti_seen"), sessions: await h.rows("mcp_sessions"), audit: await h.rows("audit_log") };
      const half = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(JSON.stringify(INITIALIZE).slice(0, 40)));
          if (h.cutBody === "end") c.close();
          else c.error(new Error("connection lost"));
        },
      });
      const res = await h.fetch(request(h, half, { auth: await h.signedAuth("half-sent-1") }));
      expect(res.status).toBe(400);
      // Node sees the stream fail; the edge gets the bytes that arrived and an end, which do not parse.
      expect((await errorOf(res)).message).toMatch(/ended before it was complete|not valid UTF-8 JSON/);
      expect({ jti: await h.rows("jti_seen"), sessions: await h.rows("mcp_sessions"), audit: await h.rows("audit_log") }).toEqual(before);
      // The same token still works once: nothing of the broken request was recorded.
      const again = await h.fetch(request(h, JSON.stringify(INITIALIZE), { auth: await h.signedAuth("half-sent-1") }));
      expect(again.status).toBe(200);
    });
  });
}
