import { describe, expect, it } from "vitest";
import { makeMotebit, OTHER_SEED, peer } from "../helpers/motebit.js";
import { createSigner, signDelegationToken, sovereignMotebitId, stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";

async function token(h: Awaited<ReturnType<typeof makeMotebit>>, over: Record<string, unknown> = {}) {
  const delegator = await createSigner(OTHER_SEED);
  const now = Date.now();
  const t = await signDelegationToken(
    {
      delegator_id: await sovereignMotebitId(delegator.publicKeyHex),
      delegator_public_key: delegator.publicKeyHex,
      delegate_id: h.m.motebitId,
      delegate_public_key: h.m.publicKeyHex,
      scope: "echo,word_count",
      issued_at: now - 1000,
      expires_at: now + 60_000,
      ...over,
    } as any,
    delegator,
  );
  return JSON.stringify(t);
}

describe("motebit_task delegation tokens (docs/protocol.md §6)", () => {
  it("copies the delegated scope into the signed receipt", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "hi", delegation_token: await token(h), required_capabilities: ["echo"] })));
    expect(r.delegated_scope).toBe("echo,word_count");
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect((await verifyReceipt({ ...r, delegated_scope: "*" })).valid).toBe(false);
  });

  it("runs only tools inside the delegated scope, even when no capability is named", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "one two", delegation_token: await token(h, { scope: "word_count" }) })));
    expect(r).toMatchObject({ status: "completed", tools_used: ["word_count"], delegated_scope: "word_count" });
    const none = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "x", delegation_token: await token(h, { scope: "web_search" }) })));
    expect(none).toMatchObject({ status: "failed", tools_used: [], delegated_scope: "web_search" });
    expect((await verifyReceipt(none)).valid).toBe(true);
  });

  it("refuses a capability outside the scope with the exact text", async () => {
    const h = await makeMotebit();
    const r = await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: await token(h), required_capabilities: ["echo", "web_search"] });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe('Denied: capability "web_search" is not within delegated scope "echo,word_count"');
  });

  it("a * scope covers any capability", async () => {
    const h = await makeMotebit();
    const r = await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: await token(h, { scope: "*" }), required_capabilities: ["echo"] });
    expect(r.isError).toBeUndefined();
  });

  it("refuses bad JSON, a bad signature, an expired token and a token for another motebit, each with its own text", async () => {
    const h = await makeMotebit();
    const bad = await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: "{not json" });
    expect(bad.content[0].text).toBe("Denied: delegation_token is not valid JSON");
    const tampered = JSON.parse(await token(h));
    tampered.scope = "*";
    expect((await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: JSON.stringify(tampered) })).content[0].text).toBe(
      "Denied: delegation token has invalid signature",
    );
    const expired = await token(h, { issued_at: Date.now() - 120_000, expires_at: Date.now() - 60_000 });
    const e = (await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: expired })).content[0].text;
    expect(e).toMatch(/expired/);
    expect(e).not.toMatch(/invalid signature/);
    const other = await token(h, { delegate_id: "someone-else" });
    expect((await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: other })).content[0].text).toMatch(/not for this motebit/);
  });
});
