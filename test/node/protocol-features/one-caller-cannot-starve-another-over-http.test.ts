// Black-box, over the Node host's real HTTP: one caller at its limits (server-to-client requests waiting, MCP
// tasks running) cannot deny elicitation or tasks to another caller, and dropping its connections frees its waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS_PER_CALLER, WAITS_PER_CALLER } from "../../../src/mcp/engine/limits.js";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless, TASKS } from "../helpers/stateless-post.js";

const STATIC = `Bearer ${keys.auth_token}`;

const holdTask: ServedTool = {
  definition: { name: "hold_task", description: "Runs until aborted.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ", execution: { taskSupport: "optional" } },
  handler: (_a, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ ok: false, error: "aborted" }), { once: true })),
};

let host: ProtocolHost;
beforeAll(async () => {
  host = await startProtocolHost(
    { MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }) },
    [holdTask],
  );
});
afterAll(async () => host?.close());

/** Caller B: a verified peer with its own key, a fresh signed token per request. */
async function signedB(): Promise<string> {
  const signer = await createSigner(keys.known_caller.seed_hex);
  return `Bearer motebit:${await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id }, signer)}`;
}

async function post(auth: string, body: object, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${host.http.url}/mcp`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/** A 2025-11-25 session whose client can be asked (elicitation). */
async function session(auth: () => Promise<string>): Promise<string> {
  const res = await post(await auth(), { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "c", version: "1" } } });
  await res.text();
  return res.headers.get("Mcp-Session-Id")!;
}

/** Calls ask_user and reads the first message of the answer: the elicitation request, or the result if it never asked. */
async function askUser(auth: () => Promise<string>, sessionId: string, id: number, signal?: AbortSignal): Promise<Record<string, any>> {
  const res = await post(await auth(), { jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask_user", arguments: {} } }, { "Mcp-Session-Id": sessionId, "MCP-Protocol-Version": "2025-11-25" }, signal);
  if (!res.headers.get("Content-Type")?.startsWith("text/event-stream")) return (await res.json()) as Record<string, any>;
  const reader = res.body!.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended without a message");
    buf += new TextDecoder().decode(value);
    const m = /data: (.*)\n\n/.exec(buf);
    if (m) return JSON.parse(m[1]) as Record<string, any>;
  }
}

async function statelessCall(auth: string, id: number, name: string): Promise<Record<string, any>> {
  return (await postStateless(host.http.url, "tools/call", { name, arguments: {} }, { auth, id, caps: TASKS, accept: "application/json, text/event-stream" })).body;
}

describe("over HTTP, one caller cannot starve another", () => {
  it("elicitation: the static-token caller at its limit is refused, a signed caller is still asked; dropping connections frees the waits", async () => {
    const a = () => Promise.resolve(STATIC);
    const aSession = await session(a);
    const drop = new AbortController();
    const asked = await Promise.all(Array.from({ length: WAITS_PER_CALLER }, (_, i) => askUser(a, aSession, i + 1, drop.signal)));
    expect(asked.every((m) => m.method === "elicitation/create")).toBe(true);

    const refused = await askUser(a, aSession, 1000);
    expect(refused.result.content[0].text).toContain(`too many server-to-client requests waiting for this caller (limit ${WAITS_PER_CALLER})`);

    const bSession = await session(signedB);
    expect((await askUser(signedB, bSession, 1)).method).toBe("elicitation/create");

    // A goes away: its waits end with its connections, and it may ask again.
    drop.abort();
    let again: Record<string, any> = {};
    for (let i = 0; i < 50; i++) {
      const ask = new AbortController();
      again = await askUser(a, aSession, 2000 + i, ask.signal);
      ask.abort();
      if (again.method === "elicitation/create") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(again.method).toBe("elicitation/create");
  });

  it("tasks: the static-token caller at its limit is refused, a signed caller's task still starts", async () => {
    for (let i = 0; i < TASKS_PER_CALLER; i++) expect((await statelessCall(STATIC, i, "hold_task")).result).toMatchObject({ resultType: "task", status: "working" });
    const refused = await statelessCall(STATIC, 100, "hold_task");
    expect(refused.error).toMatchObject({ code: -32000, message: expect.stringContaining(`Too many tasks running for this caller (limit ${TASKS_PER_CALLER})`) });
    expect((await statelessCall(await signedB(), 1, "hold_task")).result).toMatchObject({ resultType: "task", status: "working" });
  });
});
