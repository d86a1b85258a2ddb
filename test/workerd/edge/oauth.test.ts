// OAuth at the edge: the Worker answers the metadata from the URL, the motebit's Durable Object keeps the grants
// (so 20 parallel redemptions of one code give one token), the Worker checks access tokens and the object refuses
// a revoked grant at once. Static and signed tokens keep working beside OAuth.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { signOwnerCommand } from "../../../src/oauth/owner-command.js";
import { createSigner, stripIdentityTag } from "../../../src/protocol/index.js";
import { approvedCode } from "./oauth-helpers.js";
import { BASE, initialize, INITIALIZE, keys, objectRows, post, rpc, signedAuth } from "./helpers.js";

const owner = async (d: RequestDetails) => signApproval(d, "verified", await createSigner(keys.server.seed_hex));

const RESOURCE = `${BASE}/mcp`;

describe("OAuth at the edge", () => {
  it("metadata is public; a 401 names it; static and signed tokens still get in", async () => {
    const prm = await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource/mcp`);
    expect(await prm.json()).toEqual({
      resource: RESOURCE, authorization_servers: [BASE], bearer_methods_supported: ["header"], scopes_supported: ["motebit:read", "motebit:tools", "motebit:task", "motebit:remember"], resource_name: "motebit",
    });
    expect(await (await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server`)).json()).toMatchObject({ issuer: BASE, token_endpoint: `${BASE}/token` });
    const refused = await post(INITIALIZE, { auth: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);
    expect(await refused.json()).toEqual({ error: "unauthorized" });
    await initialize();
    await initialize(await signedAuth("known_caller"));
  });

  it("the owner's approval → a token the Worker accepts as oauth:<client_id>; its grant lives in the object", async () => {
    const { clientId, redeem } = await approvedCode(BASE, owner);
    const tokens = (await (await redeem()).json()) as { access_token: string };
    const session = await initialize(`Bearer ${tokens.access_token}`);
    expect(await objectRows("SELECT caller_id FROM mcp_sessions WHERE id = ?", session)).toEqual([{ caller_id: `oauth:${clientId}` }]);
    const grants = await objectRows<{ client_id: string; trust: string }>("SELECT client_id, trust FROM oauth_grants");
    expect(grants).toEqual([{ client_id: clientId, trust: "verified" }]);
    // motebit_task runs as that peer: the ledger files its signed receipt under the client.
    const res = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "hello from an MCP host" } }), { auth: `Bearer ${tokens.access_token}`, session, accept: "application/json" });
    const text = ((await res.json()) as { result: { content: { text: string }[] } }).result.content[0].text;
    const receipt = JSON.parse(stripIdentityTag(text)) as { task_id: string; status: string };
    expect(receipt.status).toBe("completed");
    expect(await objectRows("SELECT caller FROM receipts WHERE task_id = ?", receipt.task_id)).toEqual([{ caller: `peer:oauth:${clientId}` }]);
  });

  it("20 parallel redemptions of one code at the object give exactly one token", async () => {
    const { redeem } = await approvedCode(BASE, owner);
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem()));
    const statuses = answers.map((r) => r.status);
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
  });

  it("the owner's signed revoke refuses the client's next request at once", async () => {
    const { clientId, redeem } = await approvedCode(BASE, owner);
    const { access_token } = (await (await redeem()).json()) as { access_token: string };
    const session = await initialize(`Bearer ${access_token}`);
    const command = await signOwnerCommand(keys.server.sovereign_motebit_id, { op: "revoke", client_id: clientId }, Date.now(), await createSigner(keys.server.seed_hex));
    const revoked = await SELF.fetch(`${BASE}/oauth/owner`, { method: "POST", body: JSON.stringify({ command }) });
    expect(await revoked.json()).toEqual({ revoked: clientId });
    const after = await post(rpc("tools/list"), { auth: `Bearer ${access_token}`, session });
    expect(after.status).toBe(401);
    expect(after.headers.get("WWW-Authenticate")).toContain("resource_metadata=");
    expect(await after.json()).toMatchObject({ reason: "grant_revoked" });
  });
});
