// A keyed agent as an OAuth client of the Node host, driven by oauth4webapi: its Client ID Metadata Document
// publishes an Ed25519 or P-256 key, it proves itself with private_key_jwt, and gets tokens with client_credentials
// only once the owner allowed it (a signed owner command); each assertion is good once, and the owner's revoke ends it.
import { describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { signOwnerCommand, type OwnerCommand } from "../../../src/oauth/owner-command.js";
import keys from "../../fixtures/edge/keys.json";
import { clientCredentials, discover, keyedAgent, options, type KeyedAgent } from "../../shared/oauth-agent.js";
import { BASE, json, RESOURCE, setup } from "./oauth-setup.js";

/** `extra`: more URLs the stand-in for the web answers (a jwks_uri's key set). */
async function withAgents(...agents: (KeyedAgent | [string, unknown])[]) {
  const documents = new Map<string, unknown>(agents.map((a) => (Array.isArray(a) ? a : [a.clientId, a.document])));
  const s = await setup({ fetchClientMetadata: async (u) => (documents.has(u) ? { ok: true, document: documents.get(u) } : { ok: false, why: "HTTP 404" }) });
  const owner = async (command: OwnerCommand) =>
    s.fetchFn(`${BASE}/oauth/owner`, { method: "POST", body: JSON.stringify({ command: await signOwnerCommand(keys.server.sovereign_motebit_id, command, Date.now(), s.signer) }) });
  return { ...s, owner, as: await discover(s.fetchFn, BASE) };
}

describe("a keyed agent as an OAuth client (Node host)", () => {
  it("the metadata advertises private_key_jwt, client_credentials and revocation, CIMD first", async () => {
    const { as } = await withAgents();
    expect(as.token_endpoint_auth_methods_supported).toEqual(["none", "private_key_jwt"]);
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(["EdDSA", "Ed25519", "ES256"]);
    expect(as.grant_types_supported).toContain("client_credentials");
    expect(as.revocation_endpoint).toBe(`${BASE}/revoke`);
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(Object.keys(as).indexOf("client_id_metadata_document_supported")).toBeLessThan(Object.keys(as).indexOf("registration_endpoint"));
  });

  for (const alg of ["Ed25519", "ES256"] as const) {
    it(`with an ${alg} key: refused until the owner allows it, then a token that calls /mcp with the trust the owner named`, async () => {
      const agent = await keyedAgent(`https://agent.example/${alg}.json`, alg);
      const s = await withAgents(agent);
      const before = clientCredentials(s.fetchFn, s.as, agent, RESOURCE);
      await expect(before).rejects.toMatchObject({ error: "unauthorized_client" });
      expect(await json(s.owner({ op: "allow", client_id: agent.clientId, trust: "verified" }))).toMatchObject({ approved: agent.clientId, trust: "verified" });
      const tokens = await clientCredentials(s.fetchFn, s.as, agent, RESOURCE);
      expect([tokens.token_type, tokens.refresh_token, tokens.scope]).toEqual(["bearer", undefined, "motebit:read motebit:tools motebit:task motebit:remember"]);
      expect((await s.call(tokens.access_token)).status).toBe(200);
      const listed = await json(s.owner({ op: "list" }));
      expect(listed.clients).toEqual([expect.objectContaining({ client_id: agent.clientId, kind: "metadata_document", status: "approved", trust: "verified" })]);
    });
  }

  it("an agent allowed motebit:read gets tokens of that scope only: a motebit_task is 403 insufficient_scope", async () => {
    const agent = await keyedAgent("https://agent.example/reader.json");
    const s = await withAgents(agent);
    expect(await json(s.owner({ op: "allow", client_id: agent.clientId, trust: "verified", scope: "motebit:read" }))).toMatchObject({ scope: "motebit:read" });
    const tokens = await clientCredentials(s.fetchFn, s.as, agent, RESOURCE);
    expect(tokens.scope).toBe("motebit:read");
    const init = await s.call(tokens.access_token);
    expect(init.status).toBe(200);
    const task = await s.fetchFn(RESOURCE, {
      method: "POST",
      headers: { Authorization: `Bearer ${tokens.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": init.headers.get("Mcp-Session-Id")! },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "hello" } } }),
    });
    expect([task.status, (await json(task)).error]).toEqual([403, "insufficient_scope"]);
  });

  it("an allow naming an unknown scope is refused and grants nothing", async () => {
    const agent = await keyedAgent("https://agent.example/a.json");
    const s = await withAgents(agent);
    const answer = await s.owner({ op: "allow", client_id: agent.clientId, trust: "verified", scope: "motebit:read admin" });
    expect([answer.status, (await json(answer)).error]).toEqual([400, "scope must be space-separated scopes of motebit:read, motebit:tools, motebit:task, motebit:remember"]);
    await expect(clientCredentials(s.fetchFn, s.as, agent, RESOURCE)).rejects.toMatchObject({ error: "unauthorized_client" });
  });

  it("the owner's revoke ends the agent's tokens at once and its client_credentials after", async () => {
    const agent = await keyedAgent("https://agent.example/a.json");
    const s = await withAgents(agent);
    await s.owner({ op: "allow", client_id: agent.clientId, trust: "first_contact" });
    const { access_token } = await clientCredentials(s.fetchFn, s.as, agent, RESOURCE);
    expect(await json(s.owner({ op: "revoke", client_id: agent.clientId }))).toEqual({ revoked: agent.clientId });
    expect((await s.call(access_token)).status).toBe(401);
    await expect(clientCredentials(s.fetchFn, s.as, agent, RESOURCE)).rejects.toMatchObject({ error: "unauthorized_client" });
    expect((await json(s.owner({ op: "list" }))).revoked).toEqual([expect.objectContaining({ client_id: agent.clientId, status: "revoked" })]);
  });

  it("an assertion is good once, and one signed by a key the document does not publish is refused", async () => {
    const agent = await keyedAgent("https://agent.example/a.json");
    const impostor = await keyedAgent(agent.clientId);
    const s = await withAgents(agent);
    await s.owner({ op: "allow", client_id: agent.clientId, trust: "verified" });
    let body = "";
    const capture = async (url: string | URL, init?: RequestInit) => ((body = String(init?.body)), s.fetchFn(url, init));
    const res = await oauth.clientCredentialsGrantRequest(s.as, { client_id: agent.clientId }, agent.auth, new URLSearchParams({ resource: RESOURCE }), options(capture, BASE));
    expect(res.status).toBe(200);
    const replay = await s.fetchFn(`${BASE}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
    expect([replay.status, await replay.json()]).toEqual([401, { error: "invalid_client", error_description: "this client_assertion was already used (its jti)" }]);
    await expect(clientCredentials(s.fetchFn, s.as, impostor, RESOURCE)).rejects.toMatchObject({ error: "invalid_client" });
  });

  it("client_credentials needs a proven key: a public client, or an assertion for another audience, is refused", async () => {
    const agent = await keyedAgent("https://agent.example/a.json");
    const s = await withAgents(agent);
    await s.owner({ op: "allow", client_id: agent.clientId, trust: "verified" });
    const bare = await s.fetchFn(`${BASE}/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: agent.clientId }) });
    expect([bare.status, (await json(bare)).error]).toEqual([401, "invalid_client"]);
    const elsewhere = { ...s.as, issuer: "https://other.example" };
    const res = await oauth.clientCredentialsGrantRequest(elsewhere, { client_id: agent.clientId }, agent.auth, new URLSearchParams({ resource: RESOURCE }), options(s.fetchFn, BASE));
    expect([res.status, (await json(res)).error_description]).toEqual([401, `client_assertion's aud must be ${BASE} or ${BASE}/token`]);
  });

  it("keys published at a jwks_uri instead of in the document work the same; both at once is refused", async () => {
    const agent = await keyedAgent("https://agent.example/by-uri.json");
    const { jwks, ...rest } = agent.document;
    const byUri = { ...agent, document: { ...rest, jwks_uri: "https://agent.example/jwks.json" } };
    const both = await keyedAgent("https://agent.example/both.json");
    const s = await withAgents(byUri, ["https://agent.example/jwks.json", jwks], { ...both, document: { ...both.document, jwks_uri: "https://agent.example/jwks.json" } });
    expect((await s.owner({ op: "allow", client_id: agent.clientId, trust: "verified" })).status).toBe(200);
    expect((await s.call((await clientCredentials(s.fetchFn, s.as, agent, RESOURCE)).access_token)).status).toBe(200);
    expect(await json(s.owner({ op: "allow", client_id: both.clientId, trust: "verified" }))).toEqual({
      error: "this client cannot be approved: its Client ID Metadata Document is not usable: jwks and jwks_uri must not both be given",
    });
  });

  it("the owner cannot allow a client whose document publishes no key", async () => {
    const s = await withAgents();
    const answer = await s.owner({ op: "allow", client_id: s.clientId, trust: "verified" });
    expect(answer.status).toBe(400);
  });
});
