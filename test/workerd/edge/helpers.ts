// Shared scaffolding for the edge tests: requests against the real Worker (SELF) with real credentials.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { base64urlEncode, createSigner, mintBearerToken, sha256HexSync, utf8 } from "../../../src/protocol/index.js";
import { staticTokenTag } from "../../../src/settings/static-tokens.js";
import keys from "../../fixtures/edge/keys.json";
import { receiptOfResult } from "../../shared/receipt-of-result.js";
import { STATELESS_VERSION, statelessBody, statelessHeaders } from "../../shared/stateless-request.js";

export { keys };
export const BASE = "http://edge.test";
export const STATIC = `Bearer ${keys.auth_token}`;
/** The principal the test deployment's authToken (the token named "static") authenticates as. */
export const STATIC_PEER = {
  kind: "peer",
  callerId: "static:static",
  via: "static_token",
  trust: "verified",
  credential: staticTokenTag({ sha256: sha256HexSync(keys.auth_token), trust: "verified" }),
} as const;
export const SERVER_ID = keys.server.sovereign_motebit_id;
export const BOTH = "application/json, text/event-stream";

export type KeyName = "server" | "known_caller" | "blocked" | "relay" | "rate_limited" | "stranger";

/** `Authorization` value carrying a fresh motebit token signed by `key` (claims overridable). */
export async function signedAuth(
  key: KeyName,
  o: { mid?: string; aud?: string; sub?: string | undefined; ttlMs?: number; iat?: number; jti?: string } = {},
): Promise<string> {
  const k = keys[key];
  const token = await mintBearerToken(
    {
      mid: o.mid ?? k.sovereign_motebit_id,
      did: "test-device",
      aud: o.aud ?? "mcp:call",
      sub: "sub" in o ? o.sub : SERVER_ID,
      ttlMs: o.ttlMs,
      iat: o.iat,
      jti: o.jti,
    },
    await createSigner(k.seed_hex),
  );
  return `Bearer motebit:${token}`;
}

/** A token over a payload we write by hand (for shapes mintBearerToken never produces). */
export async function handmadeAuth(key: KeyName, payload: Record<string, unknown>): Promise<string> {
  const p = utf8(JSON.stringify(payload));
  const sig = await (await createSigner(keys[key].seed_hex)).sign(p);
  return `Bearer motebit:${base64urlEncode(p)}.${base64urlEncode(sig)}`;
}

export const INITIALIZE = {
  jsonrpc: "2.0" as const,
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "edge-test", version: "1.0.0" } },
};

export function rpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1) {
  return { jsonrpc: "2.0" as const, id, method, params };
}

export interface PostOptions {
  auth?: string | null;
  session?: string;
  accept?: string | null;
  headers?: Record<string, string>;
}

export function mcpRequest(body: unknown, o: PostOptions = {}): Request {
  const headers = new Headers(o.headers);
  if (o.auth !== null) headers.set("Authorization", o.auth ?? STATIC);
  if (o.session) headers.set("Mcp-Session-Id", o.session);
  if (o.accept !== null) headers.set("Accept", o.accept ?? BOTH);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  return new Request(`${BASE}/mcp`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

export function post(body: unknown, o: PostOptions = {}): Promise<Response> {
  return SELF.fetch(mcpRequest(body, o));
}

/** A 2026-07-28 request as a conforming client sends it (test/shared/stateless-request.ts), asking for JSON. */
export function postStateless(
  method: string,
  params: Record<string, unknown>,
  o: PostOptions & { caps?: Record<string, unknown>; id?: number | null } = {},
): Promise<Response> {
  return post(statelessBody(method, params, o), { accept: "application/json", ...o, headers: { ...statelessHeaders(method, params), ...o.headers } });
}

/** The same request as the Worker hands it to the object (its handleMcp): the body, and the envelope it read. */
export function statelessCall<P>(principal: P, method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) {
  return {
    principal,
    jti: null,
    sessionId: null,
    method: "POST" as const,
    mode: "json" as const,
    kind: "request" as const,
    message: rpc(method, statelessBody(method, params, { caps }).params),
    stateless: { protocolVersion: STATELESS_VERSION, clientCapabilities: caps, logLevel: null },
  };
}

/** Waits (up to 2 s) for the task row in an object's storage to leave `working`; it must have completed; its receipt. */
export async function receiptOfTaskRow(sql: SqlStorage, taskId: string) {
  for (let i = 0; i < 100; i++) {
    const row = sql.exec<{ status: string; result: string | null }>("SELECT status, result FROM mcp_tasks WHERE task_id = ?", taskId).toArray()[0];
    if (row && row.status !== "working") {
      if (row.status !== "completed") throw new Error(`task ${taskId} ended ${row.status}, not completed`);
      return receiptOfResult(JSON.parse(row.result!));
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${taskId} stayed working`);
}

/** initialize; returns the new session id. */
export async function initialize(auth: string = STATIC): Promise<string> {
  const res = await post(INITIALIZE, { auth });
  if (res.status !== 200) throw new Error(`initialize: HTTP ${res.status} ${await res.text()}`);
  const id = res.headers.get("Mcp-Session-Id");
  if (!id) throw new Error("initialize: no Mcp-Session-Id");
  await res.arrayBuffer();
  return id;
}

export function motebitStub() {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName("motebit"));
}

/** Rows of the deployment's object, read inside it. */
export function objectRows<T>(query: string, ...params: (string | number)[]): Promise<T[]> {
  return runInDurableObject(motebitStub(), (_o, state) => state.storage.sql.exec(query, ...params).toArray() as T[]);
}
