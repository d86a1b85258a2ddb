// OAuth scopes at the edge (#41 item 1): the Worker checks the access token, the motebit's Durable Object admits the
// call, and a call beyond the grant comes back through both as 403 insufficient_scope with the scope to step up to,
// never run and audited; the MCP SDK client steps up through consent and the call runs. Only v1 here: v2 refuses a
// token endpoint over plain http other than loopback, and the test deployment's public URL is http://edge.test (v2 steps
// up at the local edge on loopback in test/node/edge/oauth-sdk-client.test.ts, and on motebit-local).
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { createSigner, stripIdentityTag } from "../../../src/protocol/index.js";
import type { FetchFn } from "../../shared/oauth-driver.js";
import { SDK_V1, stepUpFromRead } from "../../shared/oauth-step-up.js";
import { approvedCode } from "./oauth-helpers.js";
import { BASE, initialize, keys, objectRows, post, rpc } from "./helpers.js";

const fetchFn: FetchFn = (url, init) => SELF.fetch(url, init);
const owner = async (d: RequestDetails) => signApproval(d, "verified", await createSigner(keys.server.seed_hex));

describe("OAuth scopes at the edge", () => {
  it("are advertised in both metadata documents", async () => {
    const four = ["motebit:read", "motebit:tools", "motebit:task", "motebit:remember"];
    expect(((await (await SELF.fetch(`${BASE}/.well-known/oauth-protected-resource/mcp`)).json()) as { scopes_supported: string[] }).scopes_supported).toEqual(four);
    expect(((await (await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] }).scopes_supported).toEqual(four);
  });

  it("a motebit:read token's motebit_task is 403 insufficient_scope, runs nothing, and is audited in the object", async () => {
    const { clientId, redeem } = await approvedCode(BASE, owner, { scope: "motebit:read" });
    const tokens = (await (await redeem()).json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe("motebit:read");
    const auth = `Bearer ${tokens.access_token}`;
    const session = await initialize(auth);
    const before = (await objectRows("SELECT 1 FROM receipts")).length;
    const res = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "beyond the grant" } }), { auth, session, accept: "application/json" });
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toContain('Bearer error="insufficient_scope", scope="motebit:read motebit:task"');
    expect(res.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);
    expect(await res.json()).toMatchObject({ error: "insufficient_scope", scope: "motebit:read motebit:task", hint: expect.any(String) });
    expect(await objectRows("SELECT 1 FROM receipts")).toHaveLength(before);
    expect(await objectRows("SELECT outcome FROM audit_log WHERE tool = 'motebit_task' AND caller = ?", `peer:oauth:${clientId}`)).toEqual([{ outcome: "denied" }]);
  });

  it("the MCP SDK v1 client steps up from motebit:read and its motebit_task runs", async () => {
    const { result, clientId } = await stepUpFromRead(SDK_V1, fetchFn, new URL(`${BASE}/mcp`), async (page) => {
      const details = (await (await fetchFn(`${BASE}/oauth/requests/${page.code}`)).json()) as RequestDetails;
      return owner(details);
    }, { origin: null });
    const receipt = JSON.parse(stripIdentityTag(result.content[0].text)) as { task_id: string; status: string };
    expect(receipt.status).toBe("completed");
    expect(await objectRows("SELECT caller FROM receipts WHERE task_id = ?", receipt.task_id)).toEqual([{ caller: `peer:oauth:${clientId}` }]);
  });
});
