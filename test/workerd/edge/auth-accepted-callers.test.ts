// Every accepted credential makes a peer; the session it opens is bound to that peer's callerId.
import { describe, expect, it } from "vitest";
import { initialize, keys, objectRows, SERVER_ID, signedAuth, STATIC } from "./helpers.js";

async function callerOfNewSession(auth: string): Promise<string> {
  const id = await initialize(auth);
  const rows = await objectRows<{ caller_id: string }>("SELECT caller_id FROM mcp_sessions WHERE id = ?", id);
  return rows[0].caller_id;
}

describe("accepted callers", () => {
  it("the static token (authToken) is the peer 'static:static'", async () => {
    expect(await callerOfNewSession(STATIC)).toMatch(/^static:static#[0-9a-f]{16}$/);
  });
  it("a known caller is itself", async () => {
    expect(await callerOfNewSession(await signedAuth("known_caller"))).toBe(keys.known_caller.sovereign_motebit_id);
  });
  it("a known caller with first_contact trust is accepted too", async () => {
    expect(await callerOfNewSession(await signedAuth("rate_limited"))).toBe(keys.rate_limited.sovereign_motebit_id);
  });
  it("a token signed with this motebit's own key is accepted — as a peer, under its own id", async () => {
    expect(await callerOfNewSession(await signedAuth("server"))).toBe(SERVER_ID);
  });
  it("a token signed by the pinned relay key is the relay", async () => {
    expect(await callerOfNewSession(await signedAuth("relay"))).toBe(`relay:${keys.relay.sovereign_motebit_id}`);
  });
  it("the relay's forward bearer (MOTEBIT_RELAY_FORWARD_TOKEN) is the relay, not the static token's peer", async () => {
    expect(await callerOfNewSession("Bearer edge-test-relay-forward-token")).toBe("relay:relay");
  });
  it("the relay may forward under any mid it signs for", async () => {
    expect(await callerOfNewSession(await signedAuth("relay", { mid: "agent-on-the-relay" }))).toBe("relay:agent-on-the-relay");
  });
});
