// A fleet motebit's operator allows a keyed agent (its object makes the grant, for the motebit's own /mcp); the
// agent gets a token with oauth4webapi's client_credentials + private_key_jwt that works at that motebit alone,
// and the operator's revoke ends it.
import { SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clientCredentials, discover, keyedAgent } from "../../shared/oauth-agent.js";
import type { FetchFn } from "../../shared/oauth-driver.js";
import { BASE, INITIALIZE } from "../edge/helpers.js";
import { serveMetadataDocuments } from "../edge/oauth-helpers.js";
import { createMotebit, fleetPost, operator } from "./helpers.js";

const fetchFn: FetchFn = (url, init) => SELF.fetch(url, init);

beforeAll(async () => {
  await createMotebit("ka-alpha");
  await createMotebit("ka-beta");
});
afterEach(() => vi.restoreAllMocks());

describe("keyed agents of a fleet motebit", () => {
  it("the operator allows the agent; its client_credentials token works at that motebit only; revoke ends it", async () => {
    const agent = await keyedAgent("https://agent.example/fleet-agent.json");
    serveMetadataDocuments(new Map([[agent.clientId, agent.document]]));
    const issuer = `${BASE}/m/ka-alpha`;
    const as = await discover(fetchFn, issuer);
    const allowed = await operator("POST", "/motebits/ka-alpha/oauth/agents", { client_id: agent.clientId, trust: "verified" });
    expect([allowed.status, await allowed.json()]).toEqual([200, expect.objectContaining({ approved: agent.clientId, trust: "verified" })]);
    const { access_token } = await clientCredentials(fetchFn, as, agent, `${issuer}/mcp`);
    const auth = `Bearer ${access_token}`;
    expect((await fleetPost("ka-alpha", INITIALIZE, { auth })).status).toBe(200);
    expect((await fleetPost("ka-beta", INITIALIZE, { auth })).status).toBe(401);
    const listed = (await (await operator("GET", "/motebits/ka-alpha/oauth/clients")).json()) as { clients: unknown[] };
    expect(listed.clients).toEqual([expect.objectContaining({ client_id: agent.clientId, trust: "verified", live_grants: 1 })]);
    expect((await operator("DELETE", `/motebits/ka-alpha/oauth/clients/${encodeURIComponent(agent.clientId)}`)).status).toBe(200);
    expect((await fleetPost("ka-alpha", INITIALIZE, { auth })).status).toBe(401);
    // Not allowed at the other motebit: its own grants are its own.
    await expect(clientCredentials(fetchFn, await discover(fetchFn, `${BASE}/m/ka-beta`), agent, `${BASE}/m/ka-beta/mcp`)).rejects.toMatchObject({ error: "unauthorized_client" });
  });

  it("the operator's allow names the agent's scopes: its tokens carry them; an unknown or non-text scope is 400", async () => {
    const agent = await keyedAgent("https://agent.example/fleet-reader.json");
    serveMetadataDocuments(new Map([[agent.clientId, agent.document]]));
    const issuer = `${BASE}/m/ka-alpha`;
    const path = "/motebits/ka-alpha/oauth/agents";
    const unknown = await operator("POST", path, { client_id: agent.clientId, scope: "motebit:read admin" });
    expect([unknown.status, ((await unknown.json()) as { error: string }).error]).toEqual([400, expect.stringContaining("scope must be space-separated scopes of motebit:read")]);
    expect((await operator("POST", path, { client_id: agent.clientId, scope: ["motebit:read"] })).status).toBe(400);
    const allowed = await operator("POST", path, { client_id: agent.clientId, scope: "motebit:read" });
    expect([allowed.status, await allowed.json()]).toEqual([200, expect.objectContaining({ approved: agent.clientId, scope: "motebit:read" })]);
    const tokens = await clientCredentials(fetchFn, await discover(fetchFn, issuer), agent, `${issuer}/mcp`);
    expect(tokens.scope).toBe("motebit:read");
    expect((await fleetPost("ka-alpha", INITIALIZE, { auth: `Bearer ${tokens.access_token}` })).status).toBe(200);
    await operator("DELETE", `/motebits/ka-alpha/oauth/clients/${encodeURIComponent(agent.clientId)}`);
  });

  it("an operator's allow without a client_id, or for a client without keys, is refused", async () => {
    expect((await operator("POST", "/motebits/ka-alpha/oauth/agents", { trust: "verified" })).status).toBe(400);
    serveMetadataDocuments(new Map([["https://agent.example/keyless.json", { client_id: "https://agent.example/keyless.json", redirect_uris: ["https://agent.example/cb"] }]]));
    const keyless = await operator("POST", "/motebits/ka-alpha/oauth/agents", { client_id: "https://agent.example/keyless.json" });
    expect(keyless.status).toBe(400);
    expect(((await keyless.json()) as { error: string }).error).toContain("names no keys");
  });
});
