// An OAuth caller stands while its grant does: a grant not yet redeemed or revoked is no standing, and work it
// asked for that runs after revocation ends with a signed failed receipt, not with the work.
import { describe, expect, it } from "vitest";
import { oauthPrincipal } from "../../../src/oauth/access-token.js";
import { withOAuthStanding } from "../../../src/oauth/standing.js";
import { OAuthStore } from "../../../src/oauth/store.js";
import { UNCHANGED_STANDING } from "../../../src/principal.js";
import { REFUSAL_META_KEY } from "../../../src/mcp/catalog.js";
import { firstContactMessage } from "../../../src/policy/admission/refusals.js";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import { makeMotebit } from "../helpers/motebit.js";
import { memorySql } from "../helpers/sqlite.js";

function grantedStore(trust: "first_contact" | "verified" = "verified") {
  const sql = memorySql();
  const store = new OAuthStore(sql);
  store.migrate();
  store.saveClient({ clientId: "c1", kind: "registered", name: "Host", redirectUris: ["https://h.example/cb"], createdAt: 1 });
  store.createGrant({ id: "g1", clientId: "c1", trust, resource: "https://m.example/mcp", redirectUri: "https://h.example/cb", codeChallenge: "x", codeHash: "h", codeExpiresAt: 9e15, createdAt: 1 });
  return { sql, store };
}

describe("an OAuth caller's standing", () => {
  it("stands once its code is redeemed, and not after revocation; other callers are the inner rule's", () => {
    const { store } = grantedStore();
    const standing = withOAuthStanding(() => ({ ok: false, reason: "inner" }), store);
    const p = oauthPrincipal("c1", "verified", "g1");
    expect(standing(p)).toEqual({ ok: false, reason: "the OAuth client's access was revoked" });
    expect(store.redeemCode("g1", "h", "rh", 9e15)).toBe(true);
    expect(standing(p)).toEqual({ ok: true, principal: p });
    expect(standing({ ...p, grant: undefined }).ok).toBe(false);
    expect(standing({ kind: "peer", via: "static_token", callerId: "static", trust: "verified" })).toEqual({ ok: false, reason: "inner" });
    expect(store.revokeClient("c1", 2)).toBe(true);
    expect(standing(p).ok).toBe(false);
  });

  it("motebit_task for a revoked client ends in a signed failed receipt saying why", async () => {
    const { sql, store } = grantedStore();
    store.redeemCode("g1", "h", "rh", 9e15);
    const h = await makeMotebit({ sql, callerStanding: withOAuthStanding(UNCHANGED_STANDING, store) });
    const p = oauthPrincipal("c1", "verified", "g1");
    expect(JSON.parse(stripIdentityTag(await h.text(p, "motebit_task", { prompt: "before" }))).status).toBe("completed");
    store.revokeClient("c1", 2);
    const receipt = JSON.parse(stripIdentityTag(await h.text(p, "motebit_task", { prompt: "after" })));
    expect(receipt.status).toBe("failed");
    expect(receipt.result).toContain("the OAuth client's access was revoked");
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });

  it("a first_contact grant is shown why motebit_task is refused, in tools/list as tools/call says it, and the why is its trust", async () => {
    const { sql, store } = grantedStore("first_contact");
    store.redeemCode("g1", "h", "rh", 9e15);
    // A service motebit runs R0-R3 for verified callers: motebit_task (R3) is not in its approval band.
    const h = await makeMotebit({ identity: "service", sql, callerStanding: withOAuthStanding(UNCHANGED_STANDING, store) });
    const p = oauthPrincipal("c1", "first_contact", "g1");
    const listed = (await h.rpc(p, "tools/list")).result.tools as { name: string; description: string; _meta?: Record<string, string> }[];
    const task = listed.find((t) => t.name === "motebit_task")!;
    expect(task._meta).toEqual({ [REFUSAL_META_KEY]: firstContactMessage("motebit_task") });
    expect(task.description).toContain(`[Refused for you: ${firstContactMessage("motebit_task")}]`);
    expect(task.description).not.toContain("approval band");
    expect(await h.call(p, "motebit_task", { prompt: "x" })).toEqual({ content: [{ type: "text", text: firstContactMessage("motebit_task") }], isError: true });
    // Risk-free tools are listed without a refusal and run.
    expect(listed.find((t) => t.name === "motebit_identity")!._meta).toBeUndefined();
    expect((await h.call(p, "motebit_identity")).isError).toBeUndefined();
  });
});
