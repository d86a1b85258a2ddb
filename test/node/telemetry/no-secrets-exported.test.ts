// Planted secrets — a memory's text, a prompt, a tool argument, the static bearer token, a caller's signed token —
// are searched for in every byte of every span and metric the SDK exported: none appears unless the operator opted
// in to content (captureContent: then the tool arguments are exported, which shows the search finds what is there).
import { afterEach, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import { nodeApp } from "../helpers/node-app.js";
import { makeMotebit, owner } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { statelessBody, statelessHeaders } from "../../shared/stateless-request.js";
import { inMemoryOtel, type InMemoryOtel } from "./in-memory-otel.js";

const MEMORY = "planted-memory-7f3a9c the owner's locker code";
const PROMPT = "planted-prompt-2b8e41 plan the surprise";
const ARGUMENT = "planted-argument-d41c07";

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

/** Every exported span and metric, serialised whole (cycles cut), as the bytes an exporter could send. */
async function exportedBytes(): Promise<string> {
  const seen = new WeakSet<object>();
  const cut = (_k: string, v: unknown) => {
    if (typeof v === "bigint") return String(v);
    if (typeof v !== "object" || v === null) return v;
    if (seen.has(v)) return undefined;
    seen.add(v);
    return v;
  };
  return JSON.stringify({ spans: await otel.spans(), metrics: await otel.metrics() }, cut);
}

async function plantEverywhere(captureContent: boolean): Promise<{ tokens: string[] }> {
  otel = inMemoryOtel(captureContent);
  // Over stdio's engine, the owner: a memory stored and recalled, an AI task's prompt, a tool argument.
  const llm = new ScriptedLlm({ tools: [{ name: "echo", input: { text: ARGUMENT } }] }, "done");
  const h = await makeMotebit({ llm, telemetry: otel.port });
  await h.call(owner, "motebit_remember", { content: MEMORY });
  const recalled = await h.call(owner, "motebit_recall", { query: "locker code" });
  expect(recalled.content[0].text).toContain(MEMORY);
  await h.call(owner, "motebit_task", { prompt: PROMPT });
  await h.call(owner, "echo", { text: ARGUMENT });
  // Over HTTP: the static token and a caller's signed token, each on a tools/call.
  const { app } = await nodeApp({}, { telemetry: otel.port });
  const signed = `motebit:${await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id }, await createSigner(keys.known_caller.seed_hex))}`;
  const call = { name: "echo", arguments: { text: ARGUMENT } };
  for (const token of [keys.auth_token, signed]) {
    const res = await app.fetch(
      new Request("http://node.test/mcp", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json", ...statelessHeaders("tools/call", call) },
        body: JSON.stringify(statelessBody("tools/call", call, {})),
      }),
    );
    expect(res.status).toBe(200);
  }
  return { tokens: [keys.auth_token, signed.slice("motebit:".length)] };
}

describe("what telemetry never exports", () => {
  it("no memory text, prompt, tool argument or credential in any exported byte (content not opted in)", async () => {
    const { tokens } = await plantEverywhere(false);
    const bytes = await exportedBytes();
    expect(bytes).toContain("tools/call echo");
    for (const secret of [MEMORY, "7f3a9c", PROMPT, "2b8e41", ARGUMENT, ...tokens]) expect(bytes, secret.slice(0, 24)).not.toContain(secret);
  });

  it("with captureContent the tool arguments appear (the opt-in attribute: the search finds them), never a credential", async () => {
    const { tokens } = await plantEverywhere(true);
    const bytes = await exportedBytes();
    expect(bytes).toContain("gen_ai.tool.call.arguments");
    for (const planted of [ARGUMENT, MEMORY, PROMPT]) expect(bytes).toContain(planted);
    for (const secret of tokens) expect(bytes, secret.slice(0, 24)).not.toContain(secret);
  });
});
