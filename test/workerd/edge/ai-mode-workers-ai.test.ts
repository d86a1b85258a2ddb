// AI mode at the edge through workers-ai-provider and the AI binding (a local double in workerd): the Durable Object
// reads MOTEBIT_PROVIDER / MOTEBIT_MODEL from its env, a peer's task chains two tools into a receipt that verifies,
// a peer's query (streamed) gets no owner memory; AI mode without its credential is a 503 that names the variable.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MotebitObject } from "../../../worker/index.js";
import { stripIdentityTag, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { SimWorkersAiChat, type ChatTurn } from "../../doubles/workers-ai-chat-sim.js";
import { MemoryStore } from "../../../src/memory/store.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { durableSqlPort } from "../../../durable-objects/sql-port.js";
import { INITIALIZE, rpc, STATIC_PEER } from "./helpers.js";
import { SESSION_HEADER } from "../../../src/server/mcp-request.js";

const PEER = STATIC_PEER;
/** relay_task_id is bound only for the relay (or with a dispatch token). */
const RELAY = { kind: "peer", callerId: "relay:edge-relay", via: "relay", trust: "verified" } as const;
const MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

function withObject<R>(name: string, overrides: Record<string, unknown>, f: (o: MotebitObject) => Promise<R>, before?: (state: DurableObjectState) => Promise<void>): Promise<R> {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName(name));
  return runInDurableObject(stub, async (_live, state) => {
    await before?.(state);
    return f(new MotebitObject(state, { ...env, ...overrides } as unknown as EdgeEnv));
  });
}

/** An owner memory in the object's own storage (no HTTP caller is ever the owner, so it goes in directly). */
async function ownerMemory(state: DurableObjectState, content: string): Promise<void> {
  const store = new MemoryStore({ sql: durableSqlPort(state.storage), embedder: new LocalEmbedder(), index: "embedded", clock: { now: () => Date.now() } });
  await store.remember({ content, sensitivity: "none", provenance: "owner", scope: "owner" });
}

// The object's MCP endpoint wants a session: initialize once per object and principal.
const sessions = new WeakMap<MotebitObject, Map<string, string>>();

async function call(o: MotebitObject, name: string, args: Record<string, unknown>, principal: typeof PEER | typeof RELAY = PEER) {
  const p = principal;
  const mine = sessions.get(o) ?? new Map<string, string>();
  sessions.set(o, mine);
  if (!mine.has(principal.callerId)) {
    const init = await o.handleMcp({ principal: p, jti: null, sessionId: null, method: "POST", mode: "json", kind: "request", message: INITIALIZE });
    mine.set(principal.callerId, init.headers.get(SESSION_HEADER)!);
  }
  const sessionId = mine.get(principal.callerId)!;
  const res = await o.handleMcp({ principal: p, jti: null, sessionId, method: "POST", mode: "json", kind: "request", message: rpc("tools/call", { name, arguments: args }) });
  const body = (await res.json()) as { result?: { content: { text: string }[]; isError?: boolean } };
  if (!body.result) throw new Error(`no result: ${res.status} ${JSON.stringify(body)}`);
  return body.result;
}

describe("AI mode at the edge with Workers AI", () => {
  it("a peer's task that needs two tools comes back with both, signed, through the AI binding", async () => {
    const script: ChatTurn[] = [
      { tools: [{ name: "echo", input: { text: "alpha beta" } }] },
      { tools: [{ name: "word_count", input: { text: "alpha beta" } }] },
      "Echoed; two words.",
    ];
    const ai = new SimWorkersAiChat(script);
    await withObject("ai-workers-task", { AI: ai, MOTEBIT_PROVIDER: "workers-ai", MOTEBIT_EMBEDDER: "local" }, async (o) => {
      const r = await call(o, "motebit_task", { prompt: "echo 'alpha beta' and count its words", relay_task_id: "edge-relay-1" }, RELAY);
      const receipt = JSON.parse(stripIdentityTag(r.content[0].text)) as ExecutionReceipt;
      expect(receipt.status).toBe("completed");
      expect(receipt.tools_used).toEqual(["echo", "word_count"]);
      expect(receipt.relay_task_id).toBe("edge-relay-1");
      expect((await verifyReceipt(receipt)).valid).toBe(true);
      expect(ai.chats.map((c) => [c.model, c.stream])).toEqual([[MODEL, false], [MODEL, false], [MODEL, false]]);
      const offered = ai.chats[0].tools.map((t) => t.function?.name ?? t.name).sort();
      expect(offered).toEqual(["current_time", "echo", "slow", "word_count"]);
      // echo's output went back to the model as a tool message, marked as external data.
      expect(JSON.stringify(ai.chats[1].messages)).toContain('<external-data source=\\"echo\\">');
    });
  });

  it("a peer's query streams through the binding and never carries an owner memory", async () => {
    const ai = new SimWorkersAiChat(["Nothing I can share.\nMEMORY (0.9): a peer asked about the garden"]);
    const fact = "The owner buried the spare key under the garden gnome";
    await withObject("ai-workers-query", { AI: ai, MOTEBIT_PROVIDER: "workers-ai", MOTEBIT_MODEL: MODEL, MOTEBIT_EMBEDDER: "local" }, async (o) => {
      const r = await call(o, "motebit_query", { message: "Where is the spare key in the garden?" });
      expect(JSON.parse(stripIdentityTag(r.content[0].text))).toEqual({ response: "Nothing I can share.", memories_formed: 0 });
      expect(ai.chats).toHaveLength(1);
      expect(ai.chats[0].stream).toBe(true);
      expect(JSON.stringify(ai.chats[0].messages)).not.toContain("gnome");
    }, (state) => ownerMemory(state, fact));
  });

  it("MOTEBIT_MODE=ai without ANTHROPIC_API_KEY: the object answers 503 naming the variable", async () => {
    await withObject("ai-missing-key", { MOTEBIT_MODE: "ai" }, async (o) => {
      const answer = await o.identity();
      expect(answer.ok).toBe(false);
      expect((answer as { error: string }).error).toMatch(/MOTEBIT_MODE=ai .*needs ANTHROPIC_API_KEY/);
      const res = await o.handleMcp({ principal: PEER, jti: null, sessionId: null, method: "POST", mode: "json", kind: "request", message: rpc("ping") });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/needs ANTHROPIC_API_KEY/);
    });
  });
});
