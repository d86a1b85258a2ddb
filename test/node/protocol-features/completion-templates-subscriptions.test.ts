// completion/complete for prompt arguments and template variables; resource templates (the owner's receipt by
// task id, a module's own); resources/subscribe with notifications/resources/updated when motebit://state changes.
import { describe, expect, it } from "vitest";
import { newSessionState } from "../../../src/mcp/session.js";
import type { Principal } from "../../../src/principal.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { protocolPrompts, protocolResources, protocolTools } from "../helpers/protocol-tools.js";

async function session(p: Principal) {
  const h = await makeMotebit({ tools: protocolTools, extras: { resources: protocolResources, prompts: protocolPrompts } });
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  // One session, and what the server sends ahead of its answers (notifications) recorded.
  const conduit = { session: newSessionState(), send: (m: object) => {
    const { method, params } = m as (typeof sent)[number];
    sent.push({ method, params });
    return true;
  } };
  let id = 0;
  const rpc = async (method: string, params: Record<string, unknown> = {}, who: Principal = p) =>
    (await h.receive({ jsonrpc: "2.0", id: ++id, method, params }, who, conduit)) as any;
  return { h, rpc, sent };
}

describe("completion, templates, subscriptions", () => {
  it("completes a prompt argument and a template variable from the module's completers", async () => {
    const { rpc } = await session(peer());
    const prompt = await rpc("completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } });
    expect(prompt.result).toEqual({ completion: { values: ["Ada", "Alan"], total: 2, hasMore: false } });
    const tmpl = await rpc("completion/complete", { ref: { type: "ref/resource", uri: "notes://{topic}" }, argument: { name: "topic", value: "d" } });
    expect(tmpl.result.completion.values).toEqual(["deploys", "design", "dinner"]);
    const nothing = await rpc("completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "nope", value: "" } });
    expect(nothing.result.completion.values).toEqual([]);
    const bad = await rpc("completion/complete", { ref: { type: "ref/tool" }, argument: { name: "x", value: "" } });
    expect(bad.error.code).toBe(-32602);
  });

  it("lists and reads a module's template and prompt", async () => {
    const { rpc } = await session(peer());
    const templates = (await rpc("resources/templates/list")).result.resourceTemplates;
    expect(templates).toEqual([{ uriTemplate: "notes://{topic}", name: "note", description: "A note by topic.", mimeType: "text/plain" }]);
    expect((await rpc("resources/read", { uri: "notes://deploys" })).result).toEqual({
      contents: [{ uri: "notes://deploys", mimeType: "text/plain", text: "note about deploys" }],
    });
    expect((await rpc("resources/read", { uri: "nothing://here" })).error).toEqual({ code: -32002, message: "Resource not found: nothing://here" });
    const greet = await rpc("prompts/get", { name: "greet", arguments: { who: "Ada" } });
    expect(greet.result.messages[0].content.text).toBe("Hello Ada");
  });

  it("the owner reads a receipt by task id and completes task ids; a peer sees neither", async () => {
    const { h, rpc } = await session(owner);
    const task = await h.text(owner, "motebit_task", { prompt: "7", required_capabilities: ["measure"] });
    const taskId = JSON.parse(task.slice(0, task.lastIndexOf("\n"))).task_id as string;
    const templates = (await rpc("resources/templates/list")).result.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
    expect(templates).toContain("motebit://receipts/{task_id}");
    const read = await rpc("resources/read", { uri: `motebit://receipts/${taskId}` });
    expect(JSON.parse(read.result.contents[0].text)).toMatchObject({ task_id: taskId, status: "completed", result: '{"n":7}' });
    const done = await rpc("completion/complete", { ref: { type: "ref/resource", uri: "motebit://receipts/{task_id}" }, argument: { name: "task_id", value: taskId.slice(0, 6) } });
    expect(done.result.completion.values).toEqual([taskId]);

    const asPeer = await rpc("resources/read", { uri: `motebit://receipts/${taskId}` }, peer());
    expect(asPeer.error.message).toBe("Denied: receipts are served only to the owner over stdio");
    const peerCompletion = await rpc("completion/complete", { ref: { type: "ref/resource", uri: "motebit://receipts/{task_id}" }, argument: { name: "task_id", value: "" } }, peer());
    expect(peerCompletion.result.completion.values).toEqual([]);
  });

  it("a subscriber to motebit://state hears when the owner's state changes; after unsubscribe it does not", async () => {
    const { rpc, sent } = await session(owner);
    expect((await rpc("resources/subscribe", { uri: "motebit://state" })).result).toEqual({});
    await rpc("tools/call", { name: "picture", arguments: {} });
    expect(sent).toEqual([{ method: "notifications/resources/updated", params: { uri: "motebit://state" } }]);
    await rpc("resources/unsubscribe", { uri: "motebit://state" });
    await rpc("tools/call", { name: "picture", arguments: {} });
    expect(sent).toHaveLength(1);
    expect((await rpc("resources/subscribe", { uri: "motebit://nothing" })).error.message).toMatch(/^Cannot subscribe: no resource motebit:\/\/nothing/);
    expect((await rpc("resources/subscribe", { uri: "motebit://memories" }, peer())).error.code).toBe(-32602);
  });
});
