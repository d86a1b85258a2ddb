// The Worker keeps a fleet motebit's caller settings per isolate; the object decides again whenever the call was
// authenticated against settings that are no longer its own. A caller the operator removed, or a token for the
// motebit that used to have this name, is refused by the object itself.
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import type { FleetAnswer, FleetCaller } from "../../../durable-objects/object-rpc.js";
import { INITIALIZE, keys, signedAuth } from "../edge/helpers.js";
import { createMotebit, fleetObject, fleetPost, STALE_INITIALIZE, tokenFor } from "./helpers.js";
import { tokenHint } from "../../../src/callers/token-hints.js";


async function tagOf(name: string): Promise<string> {
  const a = (await fleetObject(name).fleetCaller()) as unknown as FleetAnswer<FleetCaller>;
  if (!a.ok) throw new Error(`${name}: ${a.error}`);
  return a.value.settingsTag;
}


it("under stale settings the object authenticates again: a removed caller is refused, a current one served as itself", async () => {
  const made = await createMotebit("kept-a");
  const oldTag = await tagOf("kept-a");
  const removed = await tokenFor(made.motebit_id);
  expect((await fleetObject("kept-a").fleetUpdate({ knownCallers: {} })).ok).toBe(true);

  const refused = await fleetObject("kept-a").fleetHandleMcp(STALE_INITIALIZE, { settingsTag: oldTag, authorization: removed });
  expect([refused.status, await refused.json()]).toEqual([401, { error: "invalid motebit token", reason: "no_key_for_caller", hint: tokenHint("no_key_for_caller") }]);

  // Re-added: served, as the caller the object found (not the principal the stale call claimed).
  const known = { [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } };
  expect((await fleetObject("kept-a").fleetUpdate({ knownCallers: known })).ok).toBe(true);
  const fresh = await tokenFor(made.motebit_id);
  const served = await fleetObject("kept-a").fleetHandleMcp(STALE_INITIALIZE, { settingsTag: oldTag, authorization: fresh });
  expect(served.status).toBe(200);
  await served.arrayBuffer();
});

it("a token for the motebit that had this name before is refused by the new one, even through kept settings", async () => {
  const first = await createMotebit("kept-b");
  const oldTag = await tagOf("kept-b");
  expect((await fleetObject("kept-b").fleetRetire()).ok).toBe(true);
  await env.MOTEBIT.get(env.MOTEBIT.idFromName("fleet-directory:")).directoryRemove("kept-b");
  const second = await createMotebit("kept-b");
  expect(second.motebit_id).not.toBe(first.motebit_id);
  const oldToken = await tokenFor(first.motebit_id);
  const res = await fleetObject("kept-b").fleetHandleMcp(STALE_INITIALIZE, { settingsTag: oldTag, authorization: oldToken });
  expect([res.status, await res.json()]).toEqual([401, { error: "invalid motebit token", reason: "subject_mismatch", hint: tokenHint("subject_mismatch") }]);
  // Over HTTP the same: whatever this isolate kept, the old motebit's token is refused and the new one's accepted.
  expect((await fleetPost("kept-b", INITIALIZE, { auth: await tokenFor(first.motebit_id) })).status).toBe(401);
  expect((await fleetPost("kept-b", INITIALIZE, { auth: await tokenFor(second.motebit_id) })).status).toBe(200);
  expect((await fleetPost("kept-b", INITIALIZE, { auth: await signedAuth("stranger", { sub: second.motebit_id }) })).status).toBe(401);
});
