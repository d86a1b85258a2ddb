// Black-box at the edge (Worker + Durable Object): one caller at its MCP task limit cannot deny tasks to another.
// (The edge's own tools never ask the client, so elicitation's per-caller limit is shown over the Node host.)
import { expect, it } from "vitest";
import { TASKS_PER_CALLER } from "../../../src/mcp/engine/limits.js";
import { TASKS } from "../../shared/stateless-request.js";
import { postStateless, signedAuth, STATIC } from "./helpers.js";

type Body = { result?: Record<string, unknown>; error?: { code: number; message: string } };

async function stateless(auth: string, method: string, params: Record<string, unknown>): Promise<Body> {
  return (await (await postStateless(method, params, { auth, caps: TASKS })).json()) as Body;
}

const longTask = (auth: string) => stateless(auth, "tools/call", { name: "motebit_task", arguments: { prompt: "20000", required_capabilities: ["slow"] } });

it("the static-token caller at its task limit is refused; a signed caller's task still starts", async () => {
  const mine: string[] = [];
  for (let i = 0; i < TASKS_PER_CALLER; i++) {
    const r = await longTask(STATIC);
    expect(r.result).toMatchObject({ resultType: "task", status: "working" });
    mine.push(r.result!.taskId as string);
  }
  const refused = await longTask(STATIC);
  expect(refused.error).toMatchObject({ code: -32000, message: expect.stringContaining(`Too many tasks running for this caller (limit ${TASKS_PER_CALLER})`) });

  const theirs = await longTask(await signedAuth("known_caller"));
  expect(theirs.result).toMatchObject({ resultType: "task", status: "working" });

  // Once one of its own ends, the caller may start another.
  expect((await stateless(STATIC, "tasks/cancel", { taskId: mine[0] })).result).toMatchObject({ resultType: "complete" });
  expect((await longTask(STATIC)).result).toMatchObject({ resultType: "task" });
  for (const taskId of [...mine.slice(1)]) await stateless(STATIC, "tasks/cancel", { taskId });
}, 60_000);
