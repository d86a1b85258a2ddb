// One /mcp serves MCP 2026-07-28 statelessly beside 2025-11-25 sessions: the body's _meta decides, the headers must
// agree (MCP-Protocol-Version, Mcp-Method, Mcp-Name with its base64 sentinel), and auth, the jti replay set and the
// principal rule (every HTTP caller is a peer) are the same for both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { version as packageVersion } from "../../../package.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { fetchStateless } from "../helpers/stateless-post.js";
import { STATELESS_VERSION, statelessHeaders, statelessMeta } from "../../shared/stateless-request.js";

const V = STATELESS_VERSION;
const META = { ...statelessMeta(), "io.modelcontextprotocol/clientInfo": { name: "stateless-test", version: "1" } };

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

type Sent = { status: number; body: { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } } | null; headers: Headers };

let nextId = 1;
async function send(method: string, params: Record<string, unknown> = {}, o: { headers?: Record<string, string | null>; auth?: string; meta?: unknown } = {}): Promise<Sent> {
  const headers: Record<string, string> = {
    Authorization: o.auth ?? `Bearer ${keys.auth_token}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...statelessHeaders(method, params),
  };
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  const body = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, ...(o.meta !== null && { _meta: o.meta ?? META }) } };
  const res = await fetch(`${host.http.url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

describe("2026-07-28 beside sessions on one /mcp", () => {
  it("server/discover names the revision, the capabilities and the server, and opens no session", async () => {
    const r = await send("server/discover");
    expect(r.status).toBe(200);
    expect(r.headers.get("Mcp-Session-Id")).toBeNull();
    const result = r.body!.result!;
    expect(result.supportedVersions).toEqual([V]);
    expect(result.resultType).toBe("complete");
    expect((result._meta as Record<string, unknown>)["io.modelcontextprotocol/serverInfo"]).toEqual({ name: "motebit", version: packageVersion });
    expect(Object.keys(result.capabilities as object).sort()).toEqual(["completions", "extensions", "logging", "prompts", "resources", "tools"]);
    expect((result.capabilities as { extensions: unknown }).extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    expect((result.capabilities as { resources: unknown }).resources).toEqual({ listChanged: false });
    expect(result.instructions).toContain(host.motebit.motebitId);
  });

  it("lists carry resultType and private caching hints; a call runs without a session and ends with the identity tag", async () => {
    const list = await send("tools/list");
    expect(list.body!.result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
    const names = (list.body!.result!.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("picture");
    const call = await send("tools/call", { name: "report", arguments: {} });
    expect(call.status).toBe(200);
    const content = call.body!.result!.content as { text: string }[];
    expect(content[0].text).toMatch(/^reported\n\[motebit:/);
    expect(call.body!.result!.resultType).toBe("complete");
    expect(call.body!.result).not.toHaveProperty("ttlMs");
  });

  it("logs reach a stateless call only when its _meta asks for a level", async () => {
    const quiet = await send("tools/call", { name: "report", arguments: {} });
    expect(quiet.headers.get("Content-Type")).toMatch(/^application\/json/);
    const res = await fetchStateless(host.http.url, "tools/call", { name: "report", arguments: {}, _meta: { ...META, "io.modelcontextprotocol/logLevel": "warning" } }, { id: 99, accept: "application/json, text/event-stream" });
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const events = (await res.text()).split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
    expect(events.map((e) => e.method ?? "result")).toEqual(["notifications/message", "result"]);
    expect(events[0].params).toMatchObject({ level: "warning", data: "nearly done" });
    expect(events[1].result.resultType).toBe("complete");
  });

  it("headers must agree with the body: -32020 with HTTP 400, the base64 sentinel decoded, the request id echoed", async () => {
    const mismatch = await send("tools/call", { name: "report", arguments: {} }, { headers: { "Mcp-Name": "picture" } });
    expect([mismatch.status, mismatch.body!.error!.code, mismatch.body!.id]).toEqual([400, -32020, nextId - 1]);
    const noName = await send("tools/call", { name: "report", arguments: {} }, { headers: { "Mcp-Name": null } });
    expect([noName.status, noName.body!.error!.code]).toEqual([400, -32020]);
    const noMethod = await send("tools/list", {}, { headers: { "Mcp-Method": null } });
    expect([noMethod.status, noMethod.body!.error!.code]).toEqual([400, -32020]);
    const wrongMethod = await send("tools/list", {}, { headers: { "Mcp-Method": "prompts/list" } });
    expect([wrongMethod.status, wrongMethod.body!.error!.code]).toEqual([400, -32020]);
    const encoded = await send("tools/call", { name: "report", arguments: {} }, { headers: { "Mcp-Name": `=?base64?${btoa("report")}?=` } });
    expect(encoded.status).toBe(200);
    const badSentinel = await send("tools/call", { name: "report", arguments: {} }, { headers: { "Mcp-Name": "=?base64?not base64!?=" } });
    expect([badSentinel.status, badSentinel.body!.error!.code]).toEqual([400, -32020]);
    // Raw non-ASCII bytes are read as latin1 here and as UTF-8 at the edge: one rule for both, they are refused.
    const raw = await send("tools/call", { name: "café", arguments: {} }, { headers: { "Mcp-Name": "café" } });
    expect([raw.status, raw.body!.error!.code, raw.body!.error!.message]).toEqual([400, -32020, "Header mismatch: Mcp-Name carries raw non-ASCII bytes (send such a value as =?base64?…?=)"]);
    const sentinel = await send("tools/call", { name: "café", arguments: {} }, { headers: { "Mcp-Name": `=?base64?${Buffer.from("café").toString("base64")}?=` } });
    expect([sentinel.status, sentinel.body!.error!.code]).toEqual([200, -32602]);
    const versionDisagrees = await send("tools/list", {}, { meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
    expect([versionDisagrees.status, versionDisagrees.body!.error!.code]).toEqual([400, -32020]);
  });

  it("a missing envelope is -32602, an unknown version -32022 naming what is supported, removed and unknown methods 404", async () => {
    const noMeta = await send("tools/list", {}, { meta: null });
    expect([noMeta.status, noMeta.body!.error!.code]).toEqual([400, -32602]);
    const noCaps = await send("tools/list", {}, { meta: { "io.modelcontextprotocol/protocolVersion": V } });
    expect([noCaps.status, noCaps.body!.error!.code]).toEqual([400, -32602]);
    const future = await send("server/discover", {}, { headers: { "MCP-Protocol-Version": "2099-01-01" }, meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
    expect([future.status, future.body!.error!.code, future.body!.error!.data]).toEqual([400, -32022, { supported: [V], requested: "2099-01-01" }]);
    for (const removed of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "unknown/method"]) {
      const r = await send(removed);
      expect([removed, r.status, r.body!.error!.code]).toEqual([removed, 404, -32601]);
    }
  });

  it("an unknown resource is -32602 naming the uri (2026-07-28), where a session gets -32002", async () => {
    const r = await send("resources/read", { uri: "motebit://nothing" });
    expect([r.status, r.body!.error!.code, r.body!.error!.data]).toEqual([200, -32602, { uri: "motebit://nothing" }]);
  });

  it("the principal rule holds: a stateless caller is a peer (no owner resources, no recall)", async () => {
    const resources = await send("resources/list");
    const uris = (resources.body!.result!.resources as { uri: string }[]).map((x) => x.uri);
    expect(uris).not.toContain("motebit://memories");
    expect(uris).not.toContain("motebit://receipts");
    const recall = await send("tools/call", { name: "motebit_recall", arguments: { query: "x" } });
    expect(recall.body!.result!.isError).toBe(true);
  });

  it("auth and the jti replay set are the same as for sessions", async () => {
    const none = await send("tools/list", {}, { auth: "Bearer wrong" });
    expect(none.status).toBe(401);
    const signer = await createSigner(keys.server.seed_hex);
    const token = await mintBearerToken({ mid: host.motebit.motebitId, did: host.motebit.did, aud: "mcp:call", sub: host.motebit.motebitId }, signer);
    const first = await send("tools/list", {}, { auth: `Bearer motebit:${token}` });
    expect(first.status).toBe(200);
    const replay = await send("tools/list", {}, { auth: `Bearer motebit:${token}` });
    expect([replay.status, (replay.body as unknown as { reason: string }).reason]).toEqual([401, "jti_replayed"]);
  });

  it("a 2025-11-25 session on the same endpoint is unchanged: initialize, session id, no resultType", async () => {
    const client = await host.connect();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("report");
    const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
    expect(sessionId).toMatch(/.+/);
    const res = await fetch(`${host.http.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json", "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }),
    });
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result).not.toHaveProperty("resultType");
    expect(body.result).not.toHaveProperty("ttlMs");
    const discover = await fetch(`${host.http.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json", "Mcp-Session-Id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 6, method: "server/discover" }),
    });
    expect(((await discover.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });
});
