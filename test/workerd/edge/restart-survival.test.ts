// Sessions and the jti set are rows: a restarted object loses neither.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { initialize, INITIALIZE, motebitStub, post, rpc, signedAuth } from "./helpers.js";

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
  expect(await replay.json()).toEqual({ error: "invalid motebit token", reason: "jti_replayed" });
});
