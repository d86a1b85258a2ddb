// OAuth scopes (#41 item 1) on the Node host's app: advertised, asked for at /authorize, shown and signed at
// consent, carried by the token (and narrowed, never widened, by a refresh), and held by admission: a request beyond
// the grant is 403 insufficient_scope with the scope to step up to, runs nothing, and is audited.
import { describe, expect, it } from "vitest";
import { signApproval } from "../../../src/oauth/approval.js";
import { openConsent, redirectParams, submitConsent } from "../../shared/oauth-driver.js";
import { BASE, json, RESOURCE, setup } from "./oauth-setup.js";

type S = Awaited<ReturnType<typeof setup>>;

/** Tokens for a grant the owner approved for `scope` (absent: the request names none). */
async function grantFor(s: S, scope?: string) {
  const page = await openConsent(s.fetchFn, s.authorizeUrl(scope === undefined ? {} : { scope }));
  const code = redirectParams(await submitConsent(s.fetchFn, page, "approve", await s.approve(page.code))).get("code")!;
  return { page, tokens: await json(s.redeem(code)) };
}

function mcp(s: S, token: string, body: Record<string, unknown>, session?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (session !== undefined) headers["Mcp-Session-Id"] = session;
  return s.fetchFn(RESOURCE, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...body }) });
}

async function session(s: S, token: string): Promise<string> {
  const init = await mcp(s, token, { method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
  expect(init.status).toBe(200);
  return init.headers.get("Mcp-Session-Id")!;
}

describe("OAuth scopes", () => {
  it("are advertised in both metadata documents", async () => {
    const s = await setup();
    const four = ["motebit:read", "motebit:tools", "motebit:task", "motebit:remember"];
    expect((await json(s.fetchFn(`${BASE}/.well-known/oauth-protected-resource/mcp`))).scopes_supported).toEqual(four);
    expect((await json(s.fetchFn(`${BASE}/.well-known/oauth-authorization-server`))).scopes_supported).toEqual(four);
  });

  it("a request naming an unknown scope goes back to the client as invalid_scope, and opens nothing", async () => {
    const s = await setup();
    const res = await s.fetchFn(s.authorizeUrl({ scope: "motebit:read admin" }), { redirect: "manual" });
    const back = redirectParams(res);
    expect([back.get("error"), back.get("state")]).toEqual(["invalid_scope", "s1"]);
    expect(s.sql.all("SELECT 1 FROM oauth_requests")).toHaveLength(0);
  });

  it("a request naming none is granted all four, as before scopes", async () => {
    const s = await setup();
    const { page, tokens } = await grantFor(s);
    expect(page.html).toContain("<code>motebit:remember</code>");
    expect(tokens.scope).toBe("motebit:read motebit:tools motebit:task motebit:remember");
  });

  it("the consent page and the request the owner signs name the scopes; an approval of other scopes is refused", async () => {
    const s = await setup();
    const page = await openConsent(s.fetchFn, s.authorizeUrl({ scope: "motebit:task motebit:read" }));
    expect(page.html).toContain("<code>motebit:read</code>");
    expect(page.html).toContain("<code>motebit:task</code>");
    expect(page.html).not.toContain("<code>motebit:tools</code>");
    const details = await s.details(page.code);
    expect(details.scope).toBe("motebit:read motebit:task");
    const wider = await signApproval({ ...details, scope: "motebit:read motebit:tools motebit:task motebit:remember" }, "verified", s.signer);
    const refused = await submitConsent(s.fetchFn, page, "approve", wider);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("this approval is for another request");
  });

  it("a narrow token lists only what its grant allows, and a call beyond it is 403 insufficient_scope, not run, audited", async () => {
    const s = await setup();
    const { tokens } = await grantFor(s, "motebit:read");
    expect(tokens.scope).toBe("motebit:read");
    const sid = await session(s, tokens.access_token);
    const listed = (await json(mcp(s, tokens.access_token, { method: "tools/list" }, sid))).result.tools.map((t: { name: string }) => t.name);
    expect(listed).toContain("motebit_identity");
    expect(listed).toContain("motebit_tools");
    for (const hidden of ["motebit_task", "motebit_query", "motebit_remember", "echo"]) expect(listed).not.toContain(hidden);

    const before = s.sql.all("SELECT 1 FROM receipts").length;
    const res = await mcp(s, tokens.access_token, { method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "hello" } } }, sid);
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer error="insufficient_scope", scope="motebit:read motebit:task", error_description="[^"]+", resource_metadata="https:\/\/motebit.test\/.well-known\/oauth-protected-resource\/mcp"$/);
    const body = await res.json();
    expect(body).toMatchObject({ error: "insufficient_scope", scope: "motebit:read motebit:task", hint: expect.stringContaining("authorize again") });
    expect(s.sql.all("SELECT 1 FROM receipts")).toHaveLength(before);
    const [audited] = s.sql.all<{ tool: string; caller: string; outcome: string }>("SELECT tool, caller, outcome FROM audit_log ORDER BY id DESC LIMIT 1");
    expect(audited).toEqual({ tool: "motebit_task", caller: `peer:oauth:${s.clientId}`, outcome: "denied" });

    // A served tool needs motebit:tools; what the grant holds still runs.
    expect((await mcp(s, tokens.access_token, { method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }, sid)).status).toBe(403);
    expect((await mcp(s, tokens.access_token, { method: "tools/call", params: { name: "motebit_identity", arguments: {} } }, sid)).status).toBe(200);
  });

  it("a grant without motebit:read cannot connect: initialize is 403 with the scope to add", async () => {
    const s = await setup();
    const { tokens } = await grantFor(s, "motebit:task");
    const res = await mcp(s, tokens.access_token, { method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toContain('scope="motebit:read motebit:task"');
    expect(res.headers.get("Mcp-Session-Id")).toBeNull();
  });

  it("a refresh may narrow the access token's scopes, never widen them; the grant keeps what the owner approved", async () => {
    const s = await setup();
    const { tokens } = await grantFor(s, "motebit:read motebit:task");
    const refresh = (token: string, scope?: string) =>
      json(s.fetchFn(`${BASE}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: s.clientId, resource: RESOURCE, ...(scope !== undefined && { scope }) }),
      }));
    const wider = await refresh(tokens.refresh_token, "motebit:read motebit:tools");
    expect(wider.error).toBe("invalid_scope");
    const narrow = await refresh(tokens.refresh_token, "motebit:read");
    expect(narrow.scope).toBe("motebit:read");
    const sid = await session(s, narrow.access_token);
    expect((await mcp(s, narrow.access_token, { method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "x" } } }, sid)).status).toBe(403);
    const again = await refresh(narrow.refresh_token);
    expect(again.scope).toBe("motebit:read motebit:task");
    expect(s.backend.oauth.listClients()).toEqual([expect.objectContaining({ client_id: s.clientId, scope: "motebit:read motebit:task" })]);
  });
});
