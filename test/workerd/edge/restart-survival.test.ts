// Sessions and the jti set are rows: a restarted object loses neither.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { initialize, INITIALIZE, keys, motebitStub, post, rpc, signedAuth, STATIC } from "./helpers.js";
import { tokenHint } from "../../../src/callers/token-hints.js";

/** Marks the live instance, or says whether it still carries the mark (false = a new instance). */
const mark = (set: boolean) =>
  runInDurableObject(motebitStub(), (o) => {
    const inst = o as unknown as { restartMark?: boolean };
    if (set) inst.restartMark = true;
    return inst.restartMark === true;
  });

it("after the object is reset, sessions still work and used tokens are still refused", async () => {
  const usedAuth = await signedAuth("known_caller");
  const session = await initialize(usedAuth);
  const before = await (await post(rpc("ping"), { auth: await signedAuth("known_caller"), session })).json();
  await mark(true);

  await abortAllDurableObjects();

  expect(await mark(false)).toBe(false);
  const after = await post(rpc("ping"), { auth: await signedAuth("known_caller"), session });
  expect(after.status).toBe(200);
  expect(await after.json()).toEqual(before);
  const replay = await post(INITIALIZE, { auth: usedAuth });
  expect(replay.status).toBe(401);
  expect(await replay.json()).toEqual({ error: "invalid motebit token", reason: "jti_replayed", hint: tokenHint("jti_replayed") });
});

it("a memory and a receipt acknowledged over HTTP are still in the object's SQLite after a reset", async () => {
  const session = await initialize(STATIC);
  const remembered = await post(rpc("tools/call", { name: "motebit_remember", arguments: { content: "the relay rotates keys on Mondays" } }), { auth: STATIC, session });
  expect(remembered.status).toBe(200);
  // relay_task_id is bound only for the relay: the task comes from a relay-signed token, in the relay's own session.
  const relaySession = await initialize(await signedAuth("relay"));
  const task = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "persist me", relay_task_id: "restart-1" } }), { auth: await signedAuth("relay"), session: relaySession });
  expect(task.status).toBe(200);
  // Acknowledged = the whole reply read (with workerd 1.20260730, unlike 1.20260426, a body still unread when the object is reset is lost).
  const first = (await task.json()) as { result: { content: { text: string }[] } };

  await abortAllDurableObjects();

  const rows = await runInDurableObject(motebitStub(), (_o, state) => ({
    memories: state.storage.sql.exec("SELECT content, provenance, scope, sensitivity FROM memory_nodes").toArray(),
    receipts: state.storage.sql.exec("SELECT relay_task_id, caller, status FROM receipts").toArray(),
  }));
  expect(rows.memories).toEqual([{ content: "the relay rotates keys on Mondays", provenance: "peer_agent", scope: "peer:static:static", sensitivity: "none" }]);
  expect(rows.receipts).toEqual([{ relay_task_id: "restart-1", caller: `peer:relay:${keys.relay.sovereign_motebit_id}`, status: "completed" }]);
  // The retry after the restart gets the same signed receipt back, not a second run.
  const retry = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "persist me", relay_task_id: "restart-1" } }), { auth: await signedAuth("relay"), session: relaySession });
  const again = (await retry.json()) as { result: { content: { text: string }[] } };
  expect(again.result.content[0].text).toBe(first.result.content[0].text);
});
