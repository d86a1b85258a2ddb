// How the local relay hands a task to a registered motebit, exactly as docs/protocol.md §9 says a relay does:
// GET /health (a wake-up; its answer does not matter), initialize (protocol 2025-03-26, client relay-forward),
// notifications/initialized, then tools/call motebit_task {prompt, relay_task_id}. Like the reference relay today,
// every request carries `Bearer <its API token>` (no header without one); the product document's newer relay signs a
// fresh mcp:call token per request instead (`signed`). The answer may be JSON or SSE; the first text content, tag
// stripped, is the receipt (or an object holding it under `.receipt`).
import { mintBearerToken, SIGNED_TOKEN_PREFIX, stripIdentityTag, type Signer } from "../../src/protocol/index.js";

export type ForwardOutcome =
  | { kind: "receipt"; receipt: unknown }
  /** The agent answered, but not with a receipt (a refusal, a JSON-RPC error, an unparseable text). */
  | { kind: "refused"; reason: string }
  /** The agent could not be reached, or refused the relay's credentials. */
  | { kind: "unreachable"; reason: string };

export interface ForwardTarget {
  endpointUrl: string;
  motebitId: string;
}

/** The relay's credential towards the agent: its API token (or none), or a relay-signed mcp:call token. */
export type ForwardAuth = { kind: "api_token"; token: string | null } | { kind: "signed"; signer: Signer; relayId: string; deviceId: string };

export async function forwardTask(
  target: ForwardTarget,
  task: { taskId: string; prompt: string },
  relay: { auth: ForwardAuth; fetch?: typeof fetch; timeoutMs?: number },
): Promise<ForwardOutcome> {
  const doFetch = relay.fetch ?? fetch;
  const base = target.endpointUrl.replace(/\/+$/, "");
  const mcp = base.endsWith("/mcp") ? base : `${base}/mcp`;
  const root = mcp.slice(0, -"/mcp".length);
  const auth = relay.auth;
  // A fresh signed token for every request: the agent keeps each jti single-use.
  const authorization = async (): Promise<string | null> =>
    auth.kind === "api_token"
      ? auth.token === null
        ? null
        : `Bearer ${auth.token}`
      : `Bearer ${SIGNED_TOKEN_PREFIX}${await mintBearerToken({ mid: auth.relayId, did: auth.deviceId, aud: "mcp:call", sub: target.motebitId }, auth.signer)}`;
  let session: string | null = null;
  const post = async (message: unknown, timeoutMs: number) => {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const a = await authorization();
    if (a !== null) headers.Authorization = a;
    if (session !== null) headers["Mcp-Session-Id"] = session;
    return doFetch(mcp, { method: "POST", headers, body: JSON.stringify(message), signal: AbortSignal.timeout(timeoutMs) });
  };

  // Every answer is read to its end, never cancelled: a connection closed mid-answer makes workerd log a
  // `kj::… Broken pipe` error under npm start, though the request was served.
  await doFetch(`${root}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.text(), () => undefined);

  let init: Response;
  try {
    init = await post(
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "relay-forward", version: "1.0.0" } } },
      30_000,
    );
  } catch (e) {
    return { kind: "unreachable", reason: `endpoint_unreachable: ${mcp}: ${(e as Error).message}` };
  }
  if (!init.ok) return { kind: "unreachable", reason: `endpoint_refused: initialize answered ${init.status} ${(await init.text().catch(() => "")).slice(0, 200)}` };
  await init.text();
  session = init.headers.get("mcp-session-id");

  try {
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, 5_000);
    await note.text();
    const call = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: task.prompt, relay_task_id: task.taskId } } },
      relay.timeoutMs ?? 120_000,
    );
    if (!call.ok) return { kind: "refused", reason: `tools/call answered ${call.status} ${(await call.text()).slice(0, 200)}` };
    return receiptFrom(await rpcResult(call, 2));
  } catch (e) {
    return { kind: "unreachable", reason: `endpoint_unreachable: ${mcp}: ${(e as Error).message}` };
  }
}

/** The JSON-RPC message with `id` from a JSON or SSE answer. */
async function rpcResult(res: Response, id: number): Promise<Record<string, unknown> | null> {
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  const candidates = type.includes("text/event-stream")
    ? text
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
    : [text];
  for (const c of candidates) {
    try {
      const m = JSON.parse(c) as Record<string, unknown>;
      if (m && m.id === id) return m;
    } catch {
      /* not this line */
    }
  }
  return null;
}

function receiptFrom(message: Record<string, unknown> | null): ForwardOutcome {
  if (message === null) return { kind: "refused", reason: "no JSON-RPC answer to tools/call" };
  if (message.error) return { kind: "refused", reason: `JSON-RPC error: ${JSON.stringify(message.error).slice(0, 200)}` };
  const result = message.result as { content?: { type: string; text?: string }[]; isError?: boolean } | undefined;
  const text = result?.content?.find((c) => c.type === "text")?.text;
  if (typeof text !== "string") return { kind: "refused", reason: "tools/call answered without text content" };
  const stripped = stripIdentityTag(text).trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripped);
  } catch {
    return { kind: "refused", reason: `the agent answered without a receipt: ${stripped.slice(0, 200)}` };
  }
  const obj = parsed as Record<string, unknown>;
  const receipt = obj && typeof obj.receipt === "object" && obj.receipt !== null ? obj.receipt : obj;
  return { kind: "receipt", receipt };
}
