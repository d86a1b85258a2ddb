// Fleet scaffolding: the operator's API and calls to one fleet motebit, against the real Worker (SELF).
import { env, SELF } from "cloudflare:test";
import type { RequestDetails } from "../../../src/oauth/approval.js";
import type { McpCall } from "../../../src/server/mcp-request.js";
import { BASE, BOTH, INITIALIZE, keys, signedAuth, type KeyName } from "../edge/helpers.js";

export const FLEET_TOKEN = "edge-test-fleet-operator-token";
export const CALLER_STATIC = "fleet-test-static-token-of-a";

/** A fleet motebit's own object, reached directly (as the Worker does after its directory check). */
export const fleetObject = (name: string) => env.MOTEBIT.get(env.MOTEBIT.idFromName(`fleet:${name}`));

/** An initialize as the Worker hands it over, claiming a principal the object must not take on trust when stale. */
export const STALE_INITIALIZE: McpCall = {
  principal: { kind: "peer", callerId: "whoever-the-worker-said", via: "signed_token", trust: "trusted" },
  jti: null,
  sessionId: null,
  method: "POST",
  mode: "json",
  kind: "request",
  message: INITIALIZE,
};

export function operator(method: string, path: string, body?: unknown, token: string | null = FLEET_TOKEN): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json" });
  if (token !== null) headers.set("Authorization", `Bearer ${token}`);
  return SELF.fetch(`${BASE}/fleet${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

export interface Created {
  name: string;
  motebit_id: string;
  public_key: string;
  identity: string;
  mcp_url: string;
}

/** Creates `name` with fill_01 (known_caller) as a verified caller; extra fields go into the body. */
export async function createMotebit(name: string, extra: Record<string, unknown> = {}): Promise<Created> {
  const res = await operator("POST", "/motebits", {
    name,
    known_callers: { [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } },
    ...extra,
  });
  if (res.status !== 201) throw new Error(`create ${name}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Created;
}

/** A fresh token signed by `key` for the fleet motebit `sub`. */
export function tokenFor(sub: string, key: KeyName = "known_caller"): Promise<string> {
  return signedAuth(key, { sub });
}

export function fleetPost(name: string, body: unknown, o: { auth: string; session?: string; headers?: Record<string, string> }): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json", Accept: BOTH, Authorization: o.auth, ...o.headers });
  if (o.session) headers.set("Mcp-Session-Id", o.session);
  return SELF.fetch(`${BASE}/m/${name}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
}

export async function fleetInitialize(name: string, auth: string): Promise<string> {
  const res = await fleetPost(name, INITIALIZE, { auth });
  if (res.status !== 200) throw new Error(`initialize ${name}: HTTP ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return res.headers.get("Mcp-Session-Id")!;
}

/** The JSON-RPC body of a response (JSON, or the last message of an SSE stream). */
export async function rpcBody(res: Response): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const text = await res.text();
  if (!(res.headers.get("Content-Type") ?? "").includes("text/event-stream")) return JSON.parse(text);
  const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
  return JSON.parse(data[data.length - 1]);
}

/** The operator's approval: the motebit's object signs it (motebit-local fleet approve). */
export const byOperator = (name: string) => async (d: RequestDetails) => {
  const res = await operator("POST", `/motebits/${name}/oauth/approve`, { code: d.request, trust: "verified" });
  if (res.status !== 200) throw new Error(`approve: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { approval: string }).approval;
};
