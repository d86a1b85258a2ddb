// The MCP SDK's own OAuth client against the Node host's app: 401 → resource metadata → AS metadata → dynamic
// registration → authorize (the owner's signed approval pasted into the consent form) → token → motebit_task as
// the peer oauth:<client_id>, whose receipt the ledger files under that caller; then refresh and revocation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { describe, expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { createSigner, stripIdentityTag } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { REFRESH_REUSE_GRACE_MS } from "../../../src/oauth/http/lifetimes.js";
import { fakeClock } from "./fake-clock.js";
import { MemoryProvider, openConsent, redirectParams, submitConsent, type FetchFn } from "../../shared/oauth-driver.js";

const BASE = "https://motebit.test";

async function host() {
  const clock = fakeClock(Date.now());
  const h = await nodeApp({}, { clock });
  const fetchFn: FetchFn = async (url, init) => h.app.fetch(new Request(url, init));
  return { ...h, fetchFn, clock };
}

/** The owner's side, as `motebit-local oauth approve` does it: read the request, sign it with the motebit's key. */
async function ownerApproves(fetchFn: FetchFn, code: string, trust: "verified" | "first_contact" = "verified"): Promise<string> {
  const details = (await (await fetchFn(`${BASE}/oauth/requests/${code}`)).json()) as RequestDetails;
  return signApproval(details, trust, await createSigner(keys.server.seed_hex));
}

/** The whole flow up to the authorization code; the provider then holds client information and the verifier. */
async function authorize(fetchFn: FetchFn, provider: MemoryProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { authProvider: provider, fetch: fetchFn });
  await expect(new Client({ name: "oauth-test", version: "1.0.0" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const page = await openConsent(fetchFn, provider.authorizationUrl!);
  const approval = await ownerApproves(fetchFn, page.code);
  const submitted = await submitConsent(fetchFn, page, "approve", approval);
  const back = redirectParams(submitted);
  return { transport, page, code: back.get("code")!, state: back.get("state"), iss: back.get("iss") };
}

async function connected(fetchFn: FetchFn, provider: MemoryProvider) {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { authProvider: provider, fetch: fetchFn }));
  return client;
}

describe("the MCP SDK client completes OAuth against the Node host", () => {
  it("registers, is approved by the owner, and runs motebit_task as oauth:<client_id>", async () => {
    const { fetchFn, sql } = await host();
    const provider = new MemoryProvider();
    const { transport, code, state, iss, page } = await authorize(fetchFn, provider);
    expect(state).toBe("state-123");
    expect(iss).toBe(BASE);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.html).not.toMatch(/<script/i);
    await transport.finishAuth(code);
    expect(provider.saved?.access_token).toMatch(/^motebit-oauth:/);
    expect(provider.saved?.refresh_token).toBeTruthy();

    const client = await connected(fetchFn, provider);
    const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "hello over oauth" } })) as { content: { text: string }[] };
    const receipt = JSON.parse(stripIdentityTag(result.content[0].text));
    expect(receipt.status).toBe("completed");
    const clientId = provider.info!.client_id;
    const [row] = sql.all<{ caller: string }>("SELECT caller FROM receipts WHERE task_id = ?", receipt.task_id);
    expect(row.caller).toBe(`peer:oauth:${clientId}`);
    await client.close();
  });

  it("a refresh rotates the refresh token; the old one, used again after the grace window, revokes the grant", async () => {
    const { fetchFn, clock } = await host();
    const provider = new MemoryProvider();
    const { transport, code } = await authorize(fetchFn, provider);
    await transport.finishAuth(code);
    const first = provider.saved!;
    const refresh = (token: string) =>
      fetchFn(`${BASE}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: provider.info!.client_id, resource: `${BASE}/mcp` }),
      });
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as { refresh_token: string; access_token: string };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const replay = await refresh(first.refresh_token!);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    // The grant is gone: the newest refresh token and access token fail too.
    expect(((await (await refresh(second.refresh_token)).json()) as { error: string }).error).toBe("invalid_grant");
    const call = await fetchFn(`${BASE}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${second.access_token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(call.status).toBe(401);
    expect(((await call.json()) as { reason: string }).reason).toBe("grant_revoked");
  });

  it("revocation is immediate: the client's next call is refused", async () => {
    const { fetchFn, backend } = await host();
    const provider = new MemoryProvider();
    const { transport, code } = await authorize(fetchFn, provider);
    await transport.finishAuth(code);
    const client = await connected(fetchFn, provider);
    expect(backend.oauth.listClients()).toEqual([expect.objectContaining({ client_id: provider.info!.client_id, trust: "verified", live_grants: 1 })]);
    expect(backend.oauth.revokeClient(provider.info!.client_id)).toBe(true);
    await expect(client.listTools()).rejects.toThrow();
    // Its registration stays (it may ask the owner again), shown as revoked.
    expect(backend.oauth.listClients()).toEqual([expect.objectContaining({ client_id: provider.info!.client_id, status: "revoked", live_grants: 0 })]);
  });
});
