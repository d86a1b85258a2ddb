// motebit_credentials presents what the motebit holds: credentials its owner added (verified on the way in), in a
// W3C presentation with the holder's proof; an expired one is no longer presented; nothing is canned.
import { expect, it } from "vitest";
import { createSigner, publicKeyToDidKey, stripIdentityTag } from "../../../src/protocol/index.js";
import { makeMotebit, peer } from "../helpers/motebit.js";
import { issueCredential } from "../helpers/issue-credential.js";

it("presents the credentials added to the store, and only those still valid", async () => {
  const h = await makeMotebit({ identity: "service" });
  const issuer = await createSigner("33".repeat(32));
  const now = h.m.clock.now();
  const lasting = await issueCredential(issuer, h.m.did, { validUntil: new Date(now + 86_400_000).toISOString() });
  const expiring = await issueCredential(issuer, h.m.did, { validUntil: new Date(now + 1_000).toISOString(), credentialSubject: { id: h.m.did, n: 2 } });
  expect(await h.m.credentials.add(lasting, { subject: h.m.did, now })).toMatchObject({ added: true });
  expect(await h.m.credentials.add(lasting, { subject: h.m.did, now })).toMatchObject({ added: false });
  await h.m.credentials.add(expiring, { subject: h.m.did, now });
  await expect(h.m.credentials.add(await issueCredential(issuer, "did:key:z6MkSomeoneElse"), { subject: h.m.did, now })).rejects.toThrow(/credential refused: credentialSubject\.id/);

  const present = async () => JSON.parse(stripIdentityTag((await h.call(peer(), "motebit_credentials")).content[0].text));
  const vp = await present();
  expect(vp.holder).toBe(h.m.did);
  expect(vp.verifiableCredential).toEqual([lasting, expiring]);
  expect(vp.verifiableCredential[0].issuer).toBe(publicKeyToDidKey(issuer.publicKeyHex));
  // Later than the second one's validUntil: only the first is presented.
  const later = now + 5_000;
  expect(h.m.credentials.presentable(later)).toEqual([lasting]);
});
