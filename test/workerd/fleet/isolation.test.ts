// Two fleet motebits on one Worker share nothing a caller can carry between them: a token, a session id, a task id,
// a static token or a memory of one is useless at the other; the operator's token and the deployment's own static
// token are callers of neither; and no fleet request reaches the default motebit's object.
import { env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex, verifyReceipt } from "../../../src/protocol/index.js";
import { INITIALIZE, keys, rpc, signedAuth } from "../edge/helpers.js";
import { CALLER_STATIC, createMotebit, FLEET_TOKEN, fleetInitialize, fleetObject, fleetPost, rpcBody, tokenFor, type Created } from "./helpers.js";
import { tokenHint } from "../../../src/callers/token-hints.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";
import { statelessBody, statelessHeaders, TASKS } from "../../shared/stateless-request.js";

let a: Created;
let b: Created;
beforeAll(async () => {
  a = await createMotebit("iso-a", { auth_token: CALLER_STATIC });
  b = await createMotebit("iso-b");
});

const refusal = async (res: Response) => ({ status: res.status, body: await res.json() });

function stateless(name: string, auth: string, method: string, params: Record<string, unknown>) {
  return fleetPost(name, statelessBody(method, params, { caps: TASKS, id: 7 }), { auth, headers: { ...statelessHeaders(method, params), Accept: "application/json" } });
}

describe("fleet isolation", () => {
  it("each motebit has its own id and key", () => {
    expect(a.motebit_id).not.toBe(b.motebit_id);
    expect(a.public_key).not.toBe(b.public_key);
  });

  it("a signed token for one is refused by the other (bound by sub)", async () => {
    expect((await fleetPost("iso-a", INITIALIZE, { auth: await tokenFor(a.motebit_id) })).status).toBe(200);
    expect(await refusal(await fleetPost("iso-b", INITIALIZE, { auth: await tokenFor(a.motebit_id) }))).toEqual({
      status: 401,
      body: { error: "invalid motebit token", reason: "subject_mismatch", hint: tokenHint("subject_mismatch") },
    });
  });

  it("a static token is its own motebit's only: hashed at a, unknown at b", async () => {
    expect((await fleetPost("iso-a", INITIALIZE, { auth: `Bearer ${CALLER_STATIC}` })).status).toBe(200);
    expect((await fleetPost("iso-b", INITIALIZE, { auth: `Bearer ${CALLER_STATIC}` })).status).toBe(401);
    // Kept as its hash only: the token itself is nowhere in the object's rows.
    const stored = await runInDurableObject(fleetObject("iso-a"), (_o, state) => ({
      tokens: JSON.parse(state.storage.sql.exec("SELECT static_tokens AS t FROM fleet_profile").one().t as string) as unknown,
      dump: JSON.stringify(state.storage.sql.exec("SELECT * FROM fleet_profile").toArray()),
    }));
    expect(stored.tokens).toEqual({ static: { sha256: await sha256Hex(CALLER_STATIC), trust: "verified" } });
    expect(stored.dump).not.toContain(CALLER_STATIC);
  });

  it("the operator's token and the deployment's own static token are callers of no fleet motebit", async () => {
    for (const name of ["iso-a", "iso-b"]) {
      expect((await fleetPost(name, INITIALIZE, { auth: `Bearer ${FLEET_TOKEN}` })).status).toBe(401);
      expect((await fleetPost(name, INITIALIZE, { auth: `Bearer ${keys.auth_token}` })).status).toBe(401);
      // The deployment's key signs for the default motebit, not for these.
      expect((await fleetPost(name, INITIALIZE, { auth: await signedAuth("server", { sub: name === "iso-a" ? a.motebit_id : b.motebit_id }) })).status).toBe(401);
    }
  });

  it("a session id of one is unknown at the other", async () => {
    const session = await fleetInitialize("iso-a", await tokenFor(a.motebit_id));
    expect((await fleetPost("iso-a", rpc("ping"), { auth: await tokenFor(a.motebit_id), session })).status).toBe(200);
    expect((await fleetPost("iso-b", rpc("ping"), { auth: await tokenFor(b.motebit_id), session })).status).toBe(404);
  });

  it("a task id of one is unknown at the other; its receipt is signed by its own key", async () => {
    const created = (await rpcBody(await stateless("iso-a", await tokenFor(a.motebit_id), "tools/call", { name: "motebit_task", arguments: { prompt: "hi" } }))).result!;
    expect(created).toMatchObject({ resultType: "task" });
    const elsewhere = await rpcBody(await stateless("iso-b", await tokenFor(b.motebit_id), "tasks/get", { taskId: created.taskId }));
    expect(elsewhere.error).toBeDefined();
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 50 && task.status !== "completed"; i++) {
      task = (await rpcBody(await stateless("iso-a", await tokenFor(a.motebit_id), "tasks/get", { taskId: created.taskId }))).result!;
      if (task.status !== "completed") await new Promise((r) => setTimeout(r, 50));
    }
    const receipt = receiptOfResult(task.result);
    expect(receipt).toMatchObject({ motebit_id: a.motebit_id, public_key: a.public_key });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });

  it("a memory stored at one lives in its object only (same caller, same words: nothing at the other)", async () => {
    const session = await fleetInitialize("iso-a", await tokenFor(a.motebit_id));
    const stored = await rpcBody(
      await fleetPost("iso-a", rpc("tools/call", { name: "motebit_remember", arguments: { content: "the launch code word is heliotrope" } }), { auth: await tokenFor(a.motebit_id), session }),
    );
    expect(stored.result!.isError).not.toBe(true);
    const rows = (name: string) =>
      runInDurableObject(fleetObject(name), (_o, state) =>
        state.storage.sql.exec("SELECT count(*) AS n FROM memory_nodes WHERE content LIKE '%heliotrope%'").one().n,
      );
    expect(await rows("iso-a")).toBe(1);
    expect(await rows("iso-b")).toBe(0);
  });

  it("no fleet request reached the default motebit's object (it was never created in this file)", async () => {
    const ids = (await listDurableObjectIds(env.MOTEBIT)).map((id) => id.toString());
    expect(ids).not.toContain(env.MOTEBIT.idFromName("motebit").toString());
    expect(ids).toContain(env.MOTEBIT.idFromName("fleet:iso-a").toString());
  });
});
