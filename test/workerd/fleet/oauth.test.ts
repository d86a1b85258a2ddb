// Each fleet motebit is its own protected resource and authorization server: metadata at the RFC well-known paths
// for /m/<name>, approvals signed by its own object for the operator, and its tokens good at it alone.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, INITIALIZE, post } from "../edge/helpers.js";
import { approvedCode } from "../edge/oauth-helpers.js";
import { byOperator, createMotebit, fleetInitialize, fleetPost, operator } from "./helpers.js";

beforeAll(async () => {
  await createMotebit("oa-alpha");
  await createMotebit("oa-beta");
});

describe("OAuth for fleet motebits", () => {
  it("metadata at the well-known paths of /m/<name>; its 401 names them; an unknown name is 404", async () => {
    const prm = await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource/m/oa-alpha/mcp`);
    expect(await prm.json()).toMatchObject({ resource: `${BASE}/m/oa-alpha/mcp`, authorization_servers: [`${BASE}/m/oa-alpha`] });
    const as = await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server/m/oa-alpha`);
    expect(await as.json()).toMatchObject({ issuer: `${BASE}/m/oa-alpha`, authorization_endpoint: `${BASE}/m/oa-alpha/authorize`, token_endpoint: `${BASE}/m/oa-alpha/token` });
    const refused = await fleetPost("oa-alpha", INITIALIZE, { auth: "Bearer nothing" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/m/oa-alpha/mcp"`);
    expect((await SELF.fetch(`${BASE}/m/nobody/register`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("the operator approves; the token works at that motebit only, and another's resource is invalid_target", async () => {
    const { clientId, redeem } = await approvedCode(`${BASE}/m/oa-alpha`, byOperator("oa-alpha"));
    const wrong = await redeem(`${BASE}/m/oa-beta/mcp`);
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_target");
    const { access_token } = (await (await redeem()).json()) as { access_token: string };
    const auth = `Bearer ${access_token}`;
    await fleetInitialize("oa-alpha", auth);
    const atBeta = await fleetPost("oa-beta", INITIALIZE, { auth });
    expect(atBeta.status).toBe(401);
    expect(await atBeta.json()).toMatchObject({ reason: "token_invalid" });
    expect((await post(INITIALIZE, { auth })).status).toBe(401);

    const listed = await operator("GET", "/motebits/oa-alpha/oauth/clients");
    expect(((await listed.json()) as { clients: unknown[] }).clients).toEqual([expect.objectContaining({ client_id: clientId, trust: "verified", live_grants: 1 })]);
    expect((await operator("DELETE", `/motebits/oa-alpha/oauth/clients/${encodeURIComponent(clientId)}`)).status).toBe(200);
    expect((await fleetPost("oa-alpha", INITIALIZE, { auth })).status).toBe(401);
    expect((await operator("POST", "/motebits/oa-alpha/oauth/approve", { code: "NOPE-NOPE" })).status).toBe(404);
    expect((await operator("POST", "/motebits/oa-alpha/oauth/approve", { code: "NOPE-NOPE" }, null)).status).toBe(401);
  });
});
