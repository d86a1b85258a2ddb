// Every fleet motebit registers with the deployment's relay, so it takes the relay's forwards as the deployment's
// motebit does: the relay's forward bearer (MOTEBIT_RELAY_FORWARD_TOKEN, what today's reference relay sends) and a
// token signed by the pinned relay key (MOTEBIT_RELAY_TRUST) are the relay, a verified peer — whether the Worker
// decides it (first call, or through settings it kept) or the object decides again (stale settings). A relay token
// stays bound to its motebit by sub; a wrong bearer is still 401.
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { INITIALIZE, keys, signedAuth } from "../edge/helpers.js";
import { createMotebit, fleetInitialize, fleetObject, fleetPost, STALE_INITIALIZE, type Created } from "./helpers.js";
import { tokenHint } from "../../../src/callers/token-hints.js";

const FORWARD = "Bearer edge-test-relay-forward-token";

let a: Created;
let b: Created;
beforeAll(async () => {
  a = await createMotebit("relay-a", { auth_token: "relay-a-static-token" });
  b = await createMotebit("relay-b");
});

function sessionCaller(name: string, sessionId: string): Promise<string> {
  return runInDurableObject(fleetObject(name), (_o, state) => String(state.storage.sql.exec("SELECT caller_id FROM mcp_sessions WHERE id = ?", sessionId).one().caller_id));
}

describe("the relay as a caller of fleet motebits", () => {
  it("the relay's forward bearer is the relay at each fleet motebit, first call and through kept settings", async () => {
    for (const name of ["relay-a", "relay-b", "relay-a"]) {
      expect(await sessionCaller(name, await fleetInitialize(name, FORWARD))).toBe("relay:relay");
    }
  });

  it("a token signed by the pinned relay key is the relay, and only at the motebit its sub names", async () => {
    const forA = await signedAuth("relay", { sub: a.motebit_id });
    expect(await sessionCaller("relay-a", await fleetInitialize("relay-a", forA))).toBe(`relay:${keys.relay.sovereign_motebit_id}`);
    const res = await fleetPost("relay-b", INITIALIZE, { auth: await signedAuth("relay", { sub: a.motebit_id }) });
    expect([res.status, await res.json()]).toEqual([401, { error: "invalid motebit token", reason: "subject_mismatch", hint: tokenHint("subject_mismatch") }]);
  });

  it("under stale settings the object itself takes the forward bearer as the relay", async () => {
    const res = await fleetObject("relay-b").fleetHandleMcp(STALE_INITIALIZE, { settingsTag: "not-the-current-tag", authorization: FORWARD });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(await sessionCaller("relay-b", res.headers.get("Mcp-Session-Id")!)).toBe("relay:relay");
  });

  it("a wrong bearer is 401 at a motebit with a static token and at one without", async () => {
    for (const name of ["relay-a", "relay-b"]) {
      const res = await fleetPost(name, INITIALIZE, { auth: "Bearer not-the-relay-forward-token" });
      expect([res.status, await res.json()]).toEqual([401, { error: "unauthorized" }]);
    }
  });
});
