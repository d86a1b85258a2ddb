// Refresh reuse at the edge, where the grants live in the Durable Object and WebCrypto signs (#42 item 4): 20
// parallel refreshes of one token get one new pair and keep the grant; a token never issued changes nothing.
import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { createSigner } from "../../../src/protocol/index.js";
import { approvedCode } from "./oauth-helpers.js";
import { BASE, initialize, keys } from "./helpers.js";

const owner = async (d: RequestDetails) => signApproval(d, "verified", await createSigner(keys.server.seed_hex));
type Tokens = { access_token: string; refresh_token: string; error?: string };

it("parallel refreshes of one token share one new pair; junk after the grant id is invalid_grant and revokes nothing", async () => {
  const { clientId, redeem } = await approvedCode(BASE, owner);
  const first = (await (await redeem()).json()) as Tokens;
  const refresh = (token: string) =>
    SELF.fetch(`${BASE}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: clientId, resource: `${BASE}/mcp` }),
    });
  const junk = await refresh(`${first.refresh_token.split(".")[0]}.junk`);
  expect([junk.status, ((await junk.json()) as Tokens).error]).toEqual([400, "invalid_grant"]);
  const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(first.refresh_token)));
  const bodies = (await Promise.all(answers.map((r) => r.json()))) as Tokens[];
  expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
  expect(new Set(bodies.map((b) => `${b.access_token} ${b.refresh_token}`)).size).toBe(1);
  await initialize(`Bearer ${bodies[0].access_token}`);
  expect((await refresh(bodies[0].refresh_token)).status).toBe(200);
});
