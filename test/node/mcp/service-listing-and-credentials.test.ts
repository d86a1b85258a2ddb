import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { base64urlDecode, canonicalJson, stripIdentityTag, utf8, verifySignature } from "../../../src/protocol/index.js";

const json = (t: string) => JSON.parse(stripIdentityTag(t));

describe("service motebits: listing and credentials", () => {
  it("the listing carries the identity file's service fields and only the tools this caller may call", async () => {
    const h = await makeMotebit({
      identity: "service",
      editIdentity: (d) => {
        d.service_description = "Counts words for other agents";
        d.service_url = "https://words.example";
        d.capabilities = ["word_count"];
      },
    });
    const forPeer = json(await h.text(peer(), "motebit_service_listing"));
    expect(forPeer).toMatchObject({
      motebit_id: h.m.motebitId,
      did: h.m.did,
      service_name: "test-motebit",
      service_description: "Counts words for other agents",
      service_url: "https://words.example",
      capabilities: ["word_count"],
    });
    expect(forPeer.tools.map((t: { name: string }) => t.name)).not.toContain("read_note");
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

  it("credentials are a presentation signed with the motebit's key, saying none have been issued yet", async () => {
    const h = await makeMotebit();
    const p = json(await h.text(peer(), "motebit_credentials"));
    expect(p).toMatchObject({ holder: h.m.did, motebit_id: h.m.motebitId, credentials: [], public_key: h.m.publicKeyHex });
    expect(p.note).toMatch(/No credentials have been issued/);
    const { signature, ...body } = p;
    expect(await verifySignature(h.m.publicKeyHex, utf8(canonicalJson(body)), base64urlDecode(signature))).toBe(true);
    expect(await verifySignature(h.m.publicKeyHex, utf8(canonicalJson({ ...body, credentials: ["forged"] })), base64urlDecode(signature))).toBe(false);
  });

  it("personal motebits offer neither", async () => {
    const h = await makeMotebit({ identity: "personal" });
    for (const name of ["motebit_service_listing", "motebit_credentials"]) {
      expect((await h.rpc(owner, "tools/call", { name, arguments: {} })).error.message).toBe(`Unknown tool: ${name}`);
    }
  });
});
