import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import * as ed from "@noble/ed25519";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { canonicalJson, didKeyToPublicKey, hexToBytes, stripIdentityTag, utf8 } from "../../../src/protocol/index.js";
import { base58btcDecode } from "../../../src/protocol/base58.js";

ed.hashes.sha512 = sha512;

/** eddsa-jcs-2022 checked independently of the server's code: noble's SHA-256 and Ed25519 (credential@1.0 §5.1). */
function verifiesDataIntegrity(doc: Record<string, unknown>): boolean {
  const { proof, ...body } = doc as { proof: Record<string, string> };
  const { proofValue, ...options } = proof;
  const message = new Uint8Array([...sha256(utf8(canonicalJson(options))), ...sha256(utf8(canonicalJson(body)))]);
  const pub = hexToBytes(didKeyToPublicKey(options.verificationMethod.split("#")[0]));
  return ed.verify(base58btcDecode(proofValue.slice(1)), message, pub);
}

const json = (t: string) => JSON.parse(stripIdentityTag(t));

describe("service motebits: listing and credentials", () => {
  it("the listing is an AgentServiceListing carrying the identity file's service fields and only the tools this caller may call", async () => {
    const h = await makeMotebit({
      identity: "service",
      editIdentity: (d) => {
        d.service_description = "Counts words for other agents";
        d.service_url = "https://words.example";
        d.capabilities = ["word_count"];
      },
    });
    const forPeer = json(await h.text(peer(), "motebit_service_listing"));
    // delegation@1.0 §7.1: the required fields with their types, as relays and delegators read them.
    expect(forPeer).toMatchObject({
      listing_id: h.m.motebitId,
      pricing: [],
      sla: { max_latency_ms: h.m.taskTimeoutMs, availability_guarantee: 0 },
      description: "Counts words for other agents",
      updated_at: h.m.startedAt,
    });
    expect(forPeer).toMatchObject({
      motebit_id: h.m.motebitId,
      did: h.m.did,
      service_name: "test-motebit",
      service_description: "Counts words for other agents",
      service_url: "https://words.example",
      capabilities: ["word_count"],
    });
    expect(forPeer.tools.map((t: { name: string }) => t.name)).not.toContain("read_note");
    expect(forPeer.tools.find((t: { name: string }) => t.name === "word_count")).toMatchObject({ risk: 0, risk_name: "R0_READ" });
    const firstContact = json(await h.text(peer("first_contact"), "motebit_service_listing"));
    expect(firstContact.tools.map((t: { name: string }) => t.name)).toEqual([
      "motebit_identity", "motebit_tools", "motebit_service_listing", "motebit_credentials", "echo", "word_count", "current_time",
    ]);
    expect(json(await h.text(owner, "motebit_service_listing")).tools.map((t: { name: string }) => t.name)).toContain("read_note");
  });

  it("without declared capabilities the served tools are the capabilities", async () => {
    const h = await makeMotebit();
    expect(json(await h.text(peer(), "motebit_service_listing")).capabilities).toEqual(["echo", "word_count", "current_time", "slow"]);
  });

  it("without a description the listing's description is an empty string, never null", async () => {
    const h = await makeMotebit();
    const l = json(await h.text(peer(), "motebit_service_listing"));
    expect(l.description).toBe("");
    expect(l.service_description).toBeNull();
  });

  it("credentials are a W3C Verifiable Presentation with the holder's eddsa-jcs-2022 proof, empty until one is issued", async () => {
    const h = await makeMotebit({ clock: { now: () => 1_767_225_600_000 } });
    const vp = json(await h.text(peer(), "motebit_credentials"));
    const holderKey = h.m.did.slice("did:key:".length);
    expect(vp).toEqual({
      "@context": ["https://www.w3.org/ns/credentials/v2"],
      type: ["VerifiablePresentation"],
      holder: h.m.did,
      verifiableCredential: [],
      proof: {
        type: "DataIntegrityProof",
        cryptosuite: "eddsa-jcs-2022",
        created: "2026-01-01T00:00:00.000Z",
        verificationMethod: `${h.m.did}#${holderKey}`,
        proofPurpose: "authentication",
        proofValue: expect.stringMatching(/^z[1-9A-HJ-NP-Za-km-z]+$/),
      },
    });
    expect(verifiesDataIntegrity(vp)).toBe(true);
    expect(verifiesDataIntegrity({ ...vp, verifiableCredential: ["forged"] })).toBe(false);
    expect(verifiesDataIntegrity({ ...vp, proof: { ...vp.proof, created: "2030-01-01T00:00:00.000Z" } })).toBe(false);
  });

  it("personal motebits offer neither", async () => {
    const h = await makeMotebit({ identity: "personal" });
    for (const name of ["motebit_service_listing", "motebit_credentials"]) {
      expect((await h.rpc(owner, "tools/call", { name, arguments: {} })).error.message).toBe(`Unknown tool: ${name}`);
    }
  });
});
