// One object class, three roles by name: the deployment's motebit, a fleet motebit, the fleet's directory. Each
// object answers only its own role's methods, so no motebit exposes the directory's, and the directory never
// starts a motebit in its storage. (Called inside each object: a refusal is an exception there, caught here.)
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { MotebitObject } from "../../../durable-objects/motebit-object.js";

const stub = (name: string) => env.MOTEBIT.get(env.MOTEBIT.idFromName(name));
/** What each call of `calls` does inside the object `name`: "answered", or the message it is refused with. */
const outcomes = (name: string, calls: (o: MotebitObject) => Promise<unknown>[]) =>
  runInDurableObject(stub(name), (o) => Promise.all(calls(o as MotebitObject).map((c) => c.then(() => "answered", (e: Error) => e.message))));
const tablesOf = (name: string) =>
  runInDurableObject(stub(name), (_o, state) =>
    state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").toArray(),
  );

it("a motebit's object, deployment's or fleet's, has no directory methods", async () => {
  for (const [name, role] of [["motebit", "motebit"], ["fleet:roles-a", "fleet-motebit"]]) {
    const got = await outcomes(name, (o) => [o.directoryGet("roles-a"), o.directoryReserve("roles-a", null), o.directoryOperatorAttempt("1.2.3.4", false)]);
    expect(got).toEqual(Array(3).fill(`this object is a ${role}; it has no fleet-directory methods`));
  }
  expect(await tablesOf("fleet:roles-a")).toEqual([]);
});

it("the directory is no motebit: the deployment's and a fleet motebit's methods are refused and nothing is written", async () => {
  const got = await outcomes("fleet-directory:", (o) => [o.identity(), o.wake(), o.fleetDescribe(), o.fleetCaller()]);
  expect(got).toEqual([
    "this object is a fleet-directory; it has no motebit methods",
    "this object is a fleet-directory; it has no motebit methods",
    "this object is a fleet-directory; it has no fleet-motebit methods",
    "this object is a fleet-directory; it has no fleet-motebit methods",
  ]);
  expect(await tablesOf("fleet-directory:")).toEqual([]);
  // Its own methods answer.
  expect(await stub("fleet-directory:").directoryGet("nobody")).toBeNull();
});

it("the deployment's motebit has no fleet methods, and a fleet motebit none of the deployment's", async () => {
  expect(await outcomes("motebit", (o) => [o.fleetDescribe()])).toEqual(["this object is a motebit; it has no fleet-motebit methods"]);
  expect(await outcomes("fleet:roles-b", (o) => [o.identity(), o.handleMcp(null as never)])).toEqual(Array(2).fill("this object is a fleet-motebit; it has no motebit methods"));
  expect(await tablesOf("fleet:roles-b")).toEqual([]);
});

it("an alarm starts no motebit where there is none: a fleet name retired or never provisioned, or the directory", async () => {
  expect(await outcomes("fleet:roles-c", (o) => [o.alarm()])).toEqual(["answered"]);
  expect(await outcomes("fleet-directory:", (o) => [o.alarm()])).toEqual(["answered"]);
  expect(await tablesOf("fleet:roles-c")).toEqual([]);
  expect(await tablesOf("fleet-directory:")).toEqual([]);
});
