// A module prompt's get() asks the client the way a tool does: on 2026-07-28 through an input-required result
// and a signed request state (the retry carries the answer), over a 2025-11-25 session as a request back. Real HTTP:
// motebit-local's HTTP host with the protocol prompts, and the real local edge with the conformance fixtures.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless } from "../helpers/stateless-post.js";
import { startLocalEdge, type LocalEdge } from "../edge/local-edge.js";
import type { ServedTool } from "../../../src/tools/types.js";

const ELICIT = { elicitation: {} };
/** A tool of the prompt's own name that asks the same question: its state must still not serve the prompt. */
const sameNameTool: ServedTool = {
  definition: { name: "ask_topic", description: "Asks for a topic.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ" },
  handler: async (_a, ctx) => ({ ok: true, data: JSON.stringify(await ctx.elicit({ message: "Which topic?", requestedSchema: { type: "object", properties: { topic: { type: "string" } } } })) }),
};

let local: ProtocolHost;
let edge: LocalEdge;
beforeAll(async () => {
  [local, edge] = await Promise.all([
    startProtocolHost({}, [sameNameTool]),
    startLocalEdge({ MOTEBIT_AUTH_TOKEN: keys.auth_token, MOTEBIT_RATE_LIMIT: "0" }, { args: ["-c", "scripts/conformance/wrangler.toml"] }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([local?.close(), edge?.stop()]);
});

const getPrompt = (url: string, params: Record<string, unknown>, caps: Record<string, unknown> = ELICIT) => postStateless(url, "prompts/get", params, { caps });
const firstText = (result: Record<string, unknown> | undefined) => (result?.messages as { content: { text: string } }[] | undefined)?.[0].content.text;

describe("a prompt that asks (2026-07-28, motebit-local)", () => {
  it("the first get is input-required with a signed state; the retry with the answer renders the prompt", async () => {
    const first = await getPrompt(local.http.url, { name: "ask_topic" });
    expect(first.status).toBe(200);
    const r1 = first.body.result!;
    expect(r1.resultType).toBe("input_required");
    expect(r1.inputRequests).toEqual({
      "elicitation/create#0": { method: "elicitation/create", params: { message: "Which topic?", requestedSchema: { type: "object", properties: { topic: { type: "string" } } } } },
    });
    expect(r1.requestState).toMatch(/^[\w-]+\.[\w-]+$/);
    const answer = { "elicitation/create#0": { action: "accept", content: { topic: "birds" } } };
    const second = await getPrompt(local.http.url, { name: "ask_topic", inputResponses: answer, requestState: r1.requestState });
    expect(second.body.result).toMatchObject({ resultType: "complete", description: "Asks the user for a topic, then renders it." });
    expect(firstText(second.body.result)).toBe("Topic: birds");
  });

  it("a state from the tool of the same name is not the prompt's (nor the other way round), and a forged one is refused: -32602", async () => {
    const toolState = (await postStateless(local.http.url, "tools/call", { name: "ask_topic", arguments: {} }, { caps: ELICIT })).body.result!.requestState;
    const asTool = await getPrompt(local.http.url, { name: "ask_topic", requestState: toolState });
    expect([asTool.body.error?.code, asTool.body.error?.message]).toEqual([-32602, "Invalid requestState: it belongs to another call; send the request again without it"]);
    const promptState = (await getPrompt(local.http.url, { name: "ask_topic" })).body.result!.requestState as string;
    const asPrompt = await postStateless(local.http.url, "tools/call", { name: "ask_topic", arguments: {}, requestState: promptState }, { caps: ELICIT });
    expect(asPrompt.body.error?.message).toMatch(/belongs to another call/);
    const forged = await getPrompt(local.http.url, { name: "ask_topic", requestState: `${promptState.split(".")[0]}.${"A".repeat(86)}` });
    expect(forged.body.error?.message).toMatch(/^Invalid requestState: its signature does not verify/);
  });

  it("a client that did not declare elicitation is told so: 400, -32021", async () => {
    const r = await getPrompt(local.http.url, { name: "ask_topic" }, {});
    expect([r.status, r.body.error?.code, r.body.error?.data]).toEqual([400, -32021, { requiredCapabilities: { elicitation: {} } }]);
  });

  it("a prompt that asks nothing answers at once, as before", async () => {
    const r = await getPrompt(local.http.url, { name: "greet", arguments: { who: "Ada" } });
    expect([r.body.result?.resultType, firstText(r.body.result)]).toEqual(["complete", "Hello Ada"]);
  });
});

describe("a prompt that asks over a 2025-11-25 session", () => {
  it("the question goes to the client as elicitation/create and its answer renders the prompt", async () => {
    const asked: unknown[] = [];
    const client = await local.connect({ elicit: (p) => (asked.push(p.message), { action: "accept", content: { topic: "tides" } }) });
    const r = await client.getPrompt({ name: "ask_topic" });
    expect([asked, (r.messages[0].content as { text: string }).text]).toEqual([["Which topic?"], "Topic: tides"]);
  });
});

describe("a prompt that asks, at the edge (2026-07-28)", () => {
  it("the conformance prompt: input-required for user_context, then the rendered prompt", async () => {
    const r1 = (await getPrompt(edge.url, { name: "test_input_required_result_prompt" })).body.result!;
    expect([r1.resultType, Object.keys(r1.inputRequests as object)]).toEqual(["input_required", ["user_context"]]);
    const answer = { user_context: { action: "accept", content: { context: "test context" } } };
    const r2 = (await getPrompt(edge.url, { name: "test_input_required_result_prompt", inputResponses: answer, requestState: r1.requestState })).body.result;
    expect([r2?.resultType, firstText(r2)]).toEqual(["complete", "Context: test context"]);
  });
});
