// A refusal planted in admit() alone shows on every path that runs a tool: tools/list marks it, motebit_tools leaves
// it out, tools/call refuses it (in a session, as a 2026-07-28 request, and with the tasks extension negotiated),
// motebit_task refuses it in direct mode and never offers or runs it in its AI loop, and a relay's task (the
// self-test's choice and a relay-dispatched task) refuses it too. A path that decided elsewhere would run it.
import { describe, expect, it, vi } from "vitest";
import type * as Admission from "../../../src/policy/admission/admit.js";
import { stripIdentityTag, type ExecutionReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { selfTestTask } from "../../../src/relay/self-test-task.js";
import { makeMotebit, owner, peer, relayPeer, type Harness } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";

const PLANTED = "Planted: admission refuses this tool";

vi.mock("../../../src/policy/admission/admit.js", async (importOriginal) => {
  const real = await importOriginal<typeof Admission>();
  const admit: typeof real.admit = (a) => (a.tool.name === "planted" ? { outcome: "deny", message: PLANTED } : real.admit(a));
  return { ...real, admit };
});

const ran: string[] = [];
/** Two identical risk-free tools, so only the planted refusal tells them apart. */
const tool = (name: string): ServedTool => ({
  definition: {
    name,
    description: `Echoes text (${name}).`,
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    risk: "R0_READ",
    execution: { taskSupport: "optional" },
  },
  handler: (args) => (ran.push(name), { ok: true, data: String(args.text) }),
});
const tools = [tool("planted"), tool("control")];

const receipt = (r: { content: { text: string }[] }) => JSON.parse(stripIdentityTag(r.content[0].text)) as ExecutionReceipt;

async function statelessCall(h: Harness, name: string, caps: Record<string, unknown>) {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps };
  return (await h.receive({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: { text: "hi" }, _meta: meta } }, peer())) as any;
}

describe("a refusal planted in admission", () => {
  it("is marked in tools/list and left out of motebit_tools", async () => {
    const h = await makeMotebit({ tools, identity: "service" });
    const listed = (await h.rpc(peer(), "tools/list")).result.tools as { name: string; _meta?: Record<string, unknown> }[];
    expect(listed.find((t) => t.name === "planted")?._meta).toEqual({ "motebit/refusal": PLANTED });
    expect(listed.find((t) => t.name === "control")?._meta).toBeUndefined();
    const callable = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_tools"))) as { name: string }[] | { tools: { name: string }[] };
    const names = (Array.isArray(callable) ? callable : callable.tools).map((t) => t.name);
    expect(names).toContain("control");
    expect(names).not.toContain("planted");
  });

  it("is tools/call's answer for the owner and a peer, audited as denied, and the tool never runs", async () => {
    const h = await makeMotebit({ tools });
    ran.length = 0;
    for (const p of [owner, peer("trusted")]) expect(await h.call(p, "planted", { text: "hi" })).toMatchObject({ isError: true, content: [{ type: "text", text: PLANTED }] });
    expect(await h.call(peer(), "control", { text: "hi" })).not.toHaveProperty("isError");
    expect(ran).toEqual(["control"]);
    expect(h.m.audit.list().filter((e) => e.tool === "planted").map((e) => e.outcome)).toEqual(["denied", "denied"]);
  });

  it("refuses a 2026-07-28 call, and one whose client negotiated MCP tasks gets no task", async () => {
    const h = await makeMotebit({ tools });
    ran.length = 0;
    for (const caps of [{}, { extensions: { "io.modelcontextprotocol/tasks": {} } }]) {
      const r = await statelessCall(h, "planted", caps);
      expect(r.result).toMatchObject({ isError: true, content: [{ type: "text", text: PLANTED }] });
    }
    // The same call of the control tool starts a task: the refusal, not the path, made the difference.
    const started = await statelessCall(h, "control", { extensions: { "io.modelcontextprotocol/tasks": {} } });
    expect(JSON.stringify(started.result)).toContain("taskId");
    expect(ran.filter((n) => n === "planted")).toEqual([]);
  });

  it("is motebit_task's denied receipt in direct mode, for a peer and for a relay-dispatched task", async () => {
    const h = await makeMotebit({ tools, identity: "service" });
    ran.length = 0;
    const direct = receipt(await h.call(peer(), "motebit_task", { prompt: "hi", required_capabilities: ["planted"] }));
    expect(direct).toMatchObject({ status: "denied", result: PLANTED, tools_used: [] });
    const relayed = receipt(await h.call(relayPeer, "motebit_task", { prompt: "hi", relay_task_id: "task-1", required_capabilities: ["planted"] }));
    expect(relayed).toMatchObject({ status: "denied", result: PLANTED, tools_used: [] });
    expect(receipt(await h.call(peer(), "motebit_task", { prompt: "hi", required_capabilities: ["control"] }))).toMatchObject({ status: "completed" });
    expect(ran).toEqual(["control"]);
  });

  it("is never offered to motebit_task's model, and a call of it is refused in the same words", async () => {
    const llm = new ScriptedLlm({ tools: [{ name: "planted", input: { text: "hi" } }] }, "could not");
    const h = await makeMotebit({ tools, llm, identity: "service" });
    ran.length = 0;
    const r = receipt(await h.call(peer("trusted"), "motebit_task", { prompt: "echo hi" }));
    expect(r.status).toBe("denied");
    expect((llm.seen[0].tools ?? []).map((t) => t.name)).toEqual(["control"]);
    const results = llm.seen[1].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content as { output: unknown }[]);
    expect(results.map((c) => c.output)).toEqual([{ type: "error-text", value: PLANTED }]);
    expect(ran).toEqual([]);
  });

  it("is not the relay self-test's choice", async () => {
    const h = await makeMotebit({ tools });
    expect(selfTestTask(h.m)).toEqual({ tool: "control", prompt: expect.any(String) });
  });
});
