// A keyed agent as an OAuth client of the edge, driven by oauth4webapi against the real Worker: its Client ID
// Metadata Document (served to the motebit's object by a stand-in for the web) publishes its key; the owner allows
// it with a signed command; client_credentials with private_key_jwt gives a token the Worker accepts; the owner's
// revoke ends it. And RFC 7009: a host revoking its refresh token ends its grant at once.
import { SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signApproval } from "../../../src/oauth/approval.js";
import { signOwnerCommand, type OwnerCommand } from "../../../src/oauth/owner-command.js";
import { createSigner } from "../../../src/protocol/index.js";
import { clientCredentials, discover, keyedAgent, revokeToken, type KeyedAgent } from "../../shared/oauth-agent.js";
import type { FetchFn } from "../../shared/oauth-driver.js";
import { approvedCode, serveMetadataDocuments } from "./oauth-helpers.js";
import { BASE, INITIALIZE, keys, post } from "./helpers.js";

const RESOURCE = `${BASE}/mcp`;
const fetchFn: FetchFn = (url, init) => SELF.fetch(url, init);
const documents = new Map<string, unknown>();

async function owner(command: OwnerCommand): Promise<Response> {
  const signed = await signOwnerCommand(keys.server.sovereign_motebit_id, command, Date.now(), await createSigner(keys.server.seed_hex));
  return SELF.fetch(`${BASE}/oauth/owner`, { method: "POST", body: JSON.stringify({ command: signed }) });
}

const status = async (token: string) => (await post(INITIALIZE, { auth: `Bearer ${token}` })).status;

describe("keyed agents and revocation at the edge", () => {
  let agent: KeyedAgent;
  beforeEach(async () => {
    agent = await keyedAgent(`https://agent.example/${crypto.randomUUID()}.json`, "ES256");
    documents.set(agent.clientId, agent.document);
    serveMetadataDocuments(documents);
  });
  afterEach(() => vi.restoreAllMocks());

  it("the owner allows the agent; oauth4webapi's client_credentials + private_key_jwt gets a token the Worker accepts; allowing again with a scope narrows its tokens; revoke ends it", async () => {
    const as = await discover(fetchFn, BASE);
    expect(as.token_endpoint_auth_methods_supported).toContain("private_key_jwt");
    expect(as.revocation_endpoint).toBe(`${BASE}/revoke`);
    await expect(clientCredentials(fetchFn, as, agent, RESOURCE)).rejects.toMatchObject({ error: "unauthorized_client" });
    expect(await (await owner({ op: "allow", client_id: agent.clientId, trust: "verified" })).json()).toMatchObject({ approved: agent.clientId, trust: "verified" });
    const { access_token, scope } = await clientCredentials(fetchFn, as, agent, RESOURCE);
    expect(scope).toBe("motebit:read motebit:tools motebit:task motebit:remember");
    expect(await status(access_token)).toBe(200);
    // Allowed again naming a scope: that replaces the grant, and the agent's next token carries only that scope.
    expect(await (await owner({ op: "allow", client_id: agent.clientId, trust: "verified", scope: "motebit:read" })).json()).toMatchObject({ scope: "motebit:read" });
    expect((await clientCredentials(fetchFn, as, agent, RESOURCE)).scope).toBe("motebit:read");
    expect(await (await owner({ op: "revoke", client_id: agent.clientId })).json()).toEqual({ revoked: agent.clientId });
    expect(await status(access_token)).toBe(401);
    await expect(clientCredentials(fetchFn, as, agent, RESOURCE)).rejects.toMatchObject({ error: "unauthorized_client" });
  });

  it("a host's revocation of its refresh token (oauth4webapi) ends the grant: its access token is refused at once", async () => {
    const { clientId, redeem } = await approvedCode(BASE, async (d) => signApproval(d, "verified", await createSigner(keys.server.seed_hex)));
    const tokens = (await (await redeem()).json()) as { access_token: string; refresh_token: string };
    expect(await status(tokens.access_token)).toBe(200);
    const as = await discover(fetchFn, BASE);
    await revokeToken(fetchFn, as, clientId, "not-a-token-we-issued");
    expect(await status(tokens.access_token)).toBe(200);
    await revokeToken(fetchFn, as, clientId, tokens.refresh_token);
    expect(await status(tokens.access_token)).toBe(401);
  });
});
