// A credential is held only when it verifies offline: a W3C VC about this motebit, an eddsa-jcs-2022 assertion
// proof by its did:key issuer, not expired.
import { describe, expect, it } from "vitest";
import { checkCredential, createSigner, publicKeyToDidKey } from "../../../src/protocol/index.js";
import { issueCredential } from "../helpers/issue-credential.js";

const NOW = Date.parse("2026-06-01T00:00:00Z");

describe("checkCredential", async () => {
  const issuer = await createSigner("11".repeat(32));
  const holder = publicKeyToDidKey((await createSigner("22".repeat(32))).publicKeyHex);

  it("accepts a credential about this motebit whose issuer's proof verifies", async () => {
    const vc = await issueCredential(issuer, holder);
    expect(await checkCredential(vc, { subject: holder, now: NOW })).toMatchObject({ ok: true, issuer: publicKeyToDidKey(issuer.publicKeyHex) });
  });

  it.each<[string, (vc: Record<string, unknown>) => unknown, RegExp]>([
    ["another motebit's credential", (vc) => ({ ...vc, credentialSubject: { id: "did:key:z6MkOther" } }), /credentialSubject\.id must be this motebit/],
    ["a changed claim", (vc) => ({ ...vc, credentialSubject: { ...(vc.credentialSubject as object), tasks_completed: 9000 } }), /proof does not verify/],
    ["no proof", ({ proof: _p, ...vc }) => vc, /proof must be an eddsa-jcs-2022 DataIntegrityProof/],
    ["a non-did:key issuer", (vc) => ({ ...vc, issuer: "did:web:relay.example.com", proof: { ...(vc.proof as object), verificationMethod: "did:web:relay.example.com#k" } }), /did:key this motebit can verify offline/],
    ["a proof by someone else's key", (vc) => ({ ...vc, proof: { ...(vc.proof as object), verificationMethod: `${holder}#x` } }), /verificationMethod must be the issuer's key/],
    ["not a credential", () => ["x"], /must be a JSON object/],
    ["no VerifiableCredential type", (vc) => ({ ...vc, type: ["Something"] }), /VerifiableCredential/],
  ])("refuses %s", async (_what, change, error) => {
    const vc = await issueCredential(issuer, holder);
    const r = await checkCredential(change(vc), { subject: holder, now: NOW });
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.error).toMatch(error);
  });

  it("refuses an expired credential", async () => {
    const vc = await issueCredential(issuer, holder, { validUntil: "2026-03-01T00:00:00Z" });
    expect(await checkCredential(vc, { subject: holder, now: NOW })).toEqual({ ok: false, error: "the credential expired at 2026-03-01T00:00:00Z" });
  });
});
