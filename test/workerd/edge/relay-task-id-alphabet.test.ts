// At the edge too, a relay_task_id outside the safe alphabet ("." / ".." or anything but [A-Za-z0-9._:-], at most 128
// characters) is refused from the relay itself with the reason; nothing runs and no receipt is stored.
import { expect, it } from "vitest";
import { initialize, objectRows, post, rpc, signedAuth } from "./helpers.js";

const task = async (relayTaskId: string, session: string) => {
  const res = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "hello", relay_task_id: relayTaskId } }), { auth: await signedAuth("relay"), session });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[] } }).result;
};

it("the relay's motebit_task with relay_task_id '..' or '.', a slash or an over-long id is refused, and nothing is stored", async () => {
  const session = await initialize(await signedAuth("relay"));
  for (const [id, why] of [
    ["..", 'relay_task_id may not be "." or ".."'],
    [".", 'relay_task_id may not be "." or ".."'],
    ["../../admin", "relay_task_id may hold only letters, digits and . _ : -"],
    ["x".repeat(129), "relay_task_id is longer than 128 characters"],
  ]) {
    const r = await task(id, session);
    expect(r.isError, id).toBe(true);
    expect(r.content[0].text).toBe(`Invalid arguments for tool "motebit_task": ${why}`);
  }
  expect(await objectRows("SELECT task_id FROM receipts")).toEqual([]);
  // The reference relay's ids (crypto.randomUUID()) are accepted.
  const id = crypto.randomUUID();
  expect((await task(id, session)).isError).toBeUndefined();
  expect(await objectRows("SELECT relay_task_id FROM receipts")).toEqual([{ relay_task_id: id }]);
});
