// A client whose grant the owner revoked can come back through consent (#42 item 5): its registration stays, so
// /authorize shows the consent page again (mcp-remote, holding its client_id, was stuck at "Unknown client"), and the
// owner's list shows the clients with access apart from revoked ones and registrations never approved.
import { describe, expect, it } from "vitest";
import { signOwnerCommand } from "../../../src/oauth/owner-command.js";
import keys from "../../fixtures/edge/keys.json";
import { openConsent, redirectParams, REDIRECT_URI, submitConsent } from "../../shared/oauth-driver.js";
import { BASE, json, setup } from "./oauth-setup.js";

describe("after the owner revokes a client", () => {
  it("the same client_id goes through consent again, and a new approval gives it working tokens", async () => {
    const s = await setup();
    const before = (await json(s.redeem(await s.approvedCode()))) as { access_token: string };
    expect(s.backend.oauth.revokeClient(s.clientId)).toBe(true);
    expect((await s.call(before.access_token)).status).toBe(401);
    const page = await openConsent(s.fetchFn, s.authorizeUrl());
    expect(page.status).toBe(200);
    expect(page.html).toContain("Hostile test asks to connect");
    const code = redirectParams(await submitConsent(s.fetchFn, page, "approve", await s.approve(page.code))).get("code")!;
    const after = (await json(s.redeem(code))) as { access_token: string };
    expect((await s.call(after.access_token)).status).toBe(200);
    // The revoked grant stays revoked: the new approval is a new grant.
    expect((await s.call(before.access_token)).status).toBe(401);
  });

  it("the owner's list shows approved clients apart from revoked ones and registrations never approved", async () => {
    const s = await setup();
    expect((await s.redeem(await s.approvedCode())).status).toBe(200);
    const register = async (name: string) =>
      ((await json(s.fetchFn(`${BASE}/register`, { method: "POST", body: JSON.stringify({ client_name: name, redirect_uris: [REDIRECT_URI] }) }))) as { client_id: string }).client_id;
    const idle = await register("Never approved");
    const list = async () =>
      json(s.fetchFn(`${BASE}/oauth/owner`, { method: "POST", body: JSON.stringify({ command: await signOwnerCommand(keys.server.sovereign_motebit_id, { op: "list" }, Date.now(), s.signer) }) }));
    const listed = await list();
    expect(listed.clients).toEqual([expect.objectContaining({ client_id: s.clientId, status: "approved", live_grants: 1 })]);
    expect(listed.revoked).toEqual([]);
    expect(listed.never_approved).toEqual([expect.objectContaining({ client_id: idle, name: "Never approved", status: "never_approved", live_grants: 0 })]);
    s.backend.oauth.revokeClient(s.clientId);
    const after = await list();
    expect(after.clients).toEqual([]);
    expect(after.revoked).toEqual([expect.objectContaining({ client_id: s.clientId, status: "revoked", trust: null })]);
    expect(after.never_approved.map((c: { client_id: string }) => c.client_id)).toEqual([idle]);
  });
});
