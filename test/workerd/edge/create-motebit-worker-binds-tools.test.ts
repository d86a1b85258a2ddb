// createMotebitWorker binds the tools to the Durable Object class it returns: the object serves what its own
// createMotebitWorker was given, two Workers in one isolate do not share tools (no module state), a bad tool
// array fails when the entry loads, and the class without tools is never a motebit serving nothing.
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { MotebitObject } from "../../../durable-objects/motebit-object.js";
import { createMotebitWorker } from "../../../worker/create-worker.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { SESSION_HEADER } from "../../../src/server/mcp-request.js";
import { INITIALIZE, rpc, STATIC_PEER } from "./helpers.js";

const tool = (name: string, f: (text: string) => string) => ({
  definition: { name, description: `${name}s text.`, inputSchema: { type: "object", properties: { text: { type: "string" } } }, risk: "R0_READ" as const },
  handler: (args: Record<string, unknown>) => ({ ok: true as const, data: f(String(args.text)) }),
});
const shout = tool("shout", (t) => t.toUpperCase());
const whisper = tool("whisper", (t) => t.toLowerCase());

/** Runs `method` on a fresh object of `worker`'s own class, over the storage of object `name`, in a session. */
async function ask(worker: ReturnType<typeof createMotebitWorker>, name: string, method: string, params: Record<string, unknown> = {}) {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName(name));
  return runInDurableObject(stub, async (_live, state) => {
    const o = new worker.MotebitObject(state, env as unknown as EdgeEnv);
    const call = { principal: STATIC_PEER, jti: null, method: "POST", mode: "json", kind: "request" } as const;
    const init = await o.handleMcp({ ...call, sessionId: null, message: INITIALIZE });
    const res = await o.handleMcp({ ...call, sessionId: init.headers.get(SESSION_HEADER), message: rpc(method, params, 2) });
    return (await res.json()) as { result: any };
  });
}

const names = (list: { result: { tools: { name: string }[] } }) => list.result.tools.map((t) => t.name);

it("returns the Worker's handlers and a Durable Object class that serves the tools it was given", async () => {
  const worker = createMotebitWorker({ tools: [shout] });
  expect(typeof worker.fetch).toBe("function");
  expect(typeof worker.scheduled).toBe("function"); // the relay cron's wake
  const listed = names(await ask(worker, "binds-listed", "tools/list"));
  expect(listed).toContain("shout");
  expect(listed).not.toContain("echo"); // the examples are this repository's entry's tools, not the library's
  const called = await ask(worker, "binds-called", "tools/call", { name: "shout", arguments: { text: "hi" } });
  expect(called.result.content[0].text).toMatch(/^HI\n\[motebit:/);
});

it("two Workers built in one isolate each serve their own tools", async () => {
  const loud = createMotebitWorker({ tools: [shout] });
  const quiet = createMotebitWorker({ tools: [whisper] });
  const [a, b] = [names(await ask(loud, "binds-loud", "tools/list")), names(await ask(quiet, "binds-quiet", "tools/list"))];
  expect([a.includes("shout"), a.includes("whisper")]).toEqual([true, false]);
  expect([b.includes("shout"), b.includes("whisper")]).toEqual([false, true]);
});

it("a bad tool array fails when the entry calls createMotebitWorker, naming the tool", () => {
  const bad = { ...shout, definition: { ...shout.definition, name: "motebit_shout" } };
  expect(() => createMotebitWorker({ tools: [bad] })).toThrow(/motebit_shout/);
});

it("the object class without tools refuses to construct and says which class to export", async () => {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName("binds-unbound"));
  const Unbound = MotebitObject as unknown as new (ctx: DurableObjectState, env: EdgeEnv) => MotebitObject;
  const message = await runInDurableObject(stub, (_live, state) => {
    try {
      new Unbound(state, env as unknown as EdgeEnv);
      return "constructed";
    } catch (e) {
      return (e as Error).message;
    }
  });
  expect(message).toContain("export const { MotebitObject } = worker;");
});
