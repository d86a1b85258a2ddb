// A held credential is presented only while it is valid and only when someone else issued it: one whose validFrom
// (v1: issuanceDate) lies in the future is held but not presented until then, one the motebit issued to itself is
// never presented, and notPresentedBecause says why for each (what `credentials list` shows).
import { expect, it } from "vitest";
import { notPresentedBecause } from "../../../src/credentials/credential-store.js";
import { createSigner, stripIdentityTag } from "../../../src/protocol/index.js";
import { issueCredential } from "../helpers/issue-credential.js";
import { makeMotebit, peer, TEST_SEED } from "../helpers/motebit.js";

it("a future validFrom or issuanceDate is held but not presented until it arrives; a self-issued one never is", async () => {
  let now = Date.parse("2026-06-01T00:00:00Z");
  const h = await makeMotebit({ identity: "service", clock: { now: () => now } });
  const other = await createSigner("33".repeat(32));
  const self = await createSigner(TEST_SEED);
  const valid = await issueCredential(other, h.m.did);
  const future = await issueCredential(other, h.m.did, { validFrom: "2026-07-01T00:00:00Z", credentialSubject: { id: h.m.did, n: 2 } });
  const futureV1 = await issueCredential(other, h.m.did, { validFrom: undefined, issuanceDate: "2026-08-01T00:00:00Z", credentialSubject: { id: h.m.did, n: 3 } });
  const selfIssued = await issueCredential(self, h.m.did, { credentialSubject: { id: h.m.did, n: 4 } });
  const garbled = await issueCredential(other, h.m.did, { validFrom: "soon", credentialSubject: { id: h.m.did, n: 5 } });
  for (const vc of [valid, future, futureV1, selfIssued, garbled]) await h.m.credentials.add(vc, { subject: h.m.did, now });

  const presented = async () => JSON.parse(stripIdentityTag((await h.call(peer(), "motebit_credentials")).content[0].text)).verifiableCredential;
  expect(await presented()).toEqual([valid]);
  expect(h.m.credentials.list().map((c) => notPresentedBecause(c, now))).toEqual([
    null,
    "not yet valid: validFrom 2026-07-01T00:00:00Z",
    "not yet valid: issuanceDate 2026-08-01T00:00:00Z",
    "self-issued: its issuer is this motebit itself",
    "not yet valid: validFrom soon",
  ]);
  now = Date.parse("2026-07-15T00:00:00Z");
  expect(await presented()).toEqual([valid, future]);
  now = Date.parse("2026-09-01T00:00:00Z");
  expect(await presented()).toEqual([valid, future, futureV1]);
});
