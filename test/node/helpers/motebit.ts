// Builds a real Motebit over in-memory SQLite with a public test key, and calls it as a given principal, through the
// session engine and its one classification path, as the hosts do.
import { Motebit, type MotebitOptions } from "../../../src/motebit.js";
import { createIdentityDoc, createSigner, signIdentityFile, sovereignMotebitId, type IdentityDoc } from "../../../src/protocol/index.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import type { Principal } from "../../../src/principal.js";
import type { Clock } from "../../../src/ports.js";
import exampleTools from "../../../examples/tools/index.js";
import { classifyIncoming } from "../../../src/mcp/engine/classify.js";
import type { Conduit } from "../../../src/mcp/engine/session-engine.js";
import { sessionEngineFor } from "../../../src/mcp/engine/session-engine-for-host.js";
import type { JsonRpcResponse } from "../../../src/mcp/jsonrpc.js";
import { memorySql } from "./sqlite.js";

/** demo_seq_01_20 from the golden vectors: a public test key, never for real use. */
export const TEST_SEED = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
/** fill_01 from the golden vectors: a second public test key. */
export const OTHER_SEED = "0101010101010101010101010101010101010101010101010101010101010101";

export const peer = (trust: "first_contact" | "verified" | "trusted" | "blocked" = "verified", callerId = "peer-a"): Principal => ({
  kind: "peer",
  callerId,
  via: "signed_token",
  trust,
});
export const owner: Principal = { kind: "owner" };
/** The relay as a caller (a relay-signed mcp:call token): the principal relay_task_id is bound for. */
export const relayPeer = { kind: "peer", callerId: "relay:r1", via: "relay", trust: "verified" } as const satisfies Principal;

export interface Harness {
  m: Motebit;
  /**
   * One raw message as a host receives it: the refusal or the engine's answer (null for a notification or a reply),
   * or the error of a malformed one. `conduit`: the way back and the session; absent, a fresh session each time.
   */
  receive(message: unknown, p: Principal, conduit?: Partial<Conduit>): Promise<JsonRpcResponse | null>;
  rpc(p: Principal, method: string, params?: Record<string, unknown>): Promise<any>;
  /** tools/call; returns the MCP result. */
  call(p: Principal, name: string, args?: Record<string, unknown>): Promise<{ content: { text: string }[]; isError?: boolean }>;
  text(p: Principal, name: string, args?: Record<string, unknown>): Promise<string>;
}

export async function makeMotebit(
  o: {
    identity?: "none" | "personal" | "service";
    editIdentity?: (d: IdentityDoc) => void;
    tools?: unknown;
    /** The tools module's `resources` and `prompts` exports. */
    extras?: { resources?: unknown; prompts?: unknown };
  } & Partial<Omit<MotebitOptions, "tools">> = {},
): Promise<Harness> {
  const signer = o.signer ?? (await createSigner(TEST_SEED));
  const motebitId = await sovereignMotebitId(signer.publicKeyHex);
  let identityFileText: string | null = null;
  if (o.identity && o.identity !== "none") {
    const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type: o.identity, name: "test-motebit", now: new Date(1_767_225_600_000) });
    o.editIdentity?.(doc);
    identityFileText = await signIdentityFile(doc, signer);
  }
  const clock: Clock = o.clock ?? { now: () => Date.now() };
  const sql = o.sql ?? memorySql();
  const m = await Motebit.create({
    sql,
    clock,
    signer,
    motebitId,
    deviceId: "test-device",
    identityFileText,
    tools: ToolRegistry.fromModule(o.tools ?? exampleTools, o.extras),
    llm: o.llm,
    taskTimeoutMs: o.taskTimeoutMs,
    verifyDispatchToken: o.verifyDispatchToken,
    callerStanding: o.callerStanding,
    embedder: o.embedder,
    index: o.index,
    log: o.log,
    telemetry: o.telemetry,
  });
  // The harness speaks for both principals, so it is an owner host (peers' tasks run in any host).
  const engine = sessionEngineFor(sql, clock, m, { host: "owner" });
  let conduits = 0;
  const receive = async (message: unknown, p: Principal, conduit: Partial<Conduit> = {}) => {
    const c = classifyIncoming(message, null);
    if (!c.ok) return c.response;
    const way: Conduit = { scope: `harness:${++conduits}`, session: null, send: () => true, cannotAsk: "the test harness has no client to ask", ...conduit };
    const r = await engine.receive({ principal: p, kind: c.kind, message, envelope: c.envelope }, way);
    return r.type === "answer" ? r.response : r.error;
  };
  let nextId = 1;
  const rpc = async (p: Principal, method: string, params: Record<string, unknown> = {}) =>
    (await receive({ jsonrpc: "2.0", id: nextId++, method, params }, p)) as any;
  const call = async (p: Principal, name: string, args: Record<string, unknown> = {}) => {
    const res = await rpc(p, "tools/call", { name, arguments: args });
    if (res.error) throw new Error(`JSON-RPC error ${res.error.code}: ${res.error.message}`);
    return res.result;
  };
  return { m, receive, rpc, call, text: async (p, n, a) => (await call(p, n, a)).content[0].text };
}
