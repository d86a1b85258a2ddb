import { describe, expect, it } from "vitest";
import {
  bytesToHex, createIdentityDoc, createSigner, emitIdentityYaml, GOVERNANCE_PRESETS, parseIdentityFile, ProtocolError, signIdentityFile,
  sovereignMotebitId, utf8, verifyIdentityFile,
} from "../../../src/protocol/index.js";
import { demo, fill, identityFile, vectors } from "./fixtures.js";

const SIG_LINE = /<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:[0-9a-f]{128} -->\n/;

/** Re-sign an edited YAML text with the demo key, keeping the file's shape. */
async function signedWithYaml(yaml: string, seed = demo.seed_hex): Promise<string> {
  const signer = await createSigner(seed);
  const sig = bytesToHex(await signer.sign(utf8(yaml)));
  return `---\n${yaml}\n---\n<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:${sig} -->\n`;
}

describe("identity file: the vector", () => {
  it("verifies, names the did:key signer and sees a sovereign id", async () => {
    const v = await verifyIdentityFile(identityFile);
    expect(v.errors).toEqual([]);
    expect(v.valid).toBe(vectors.identity_file.valid);
    expect(v.signer).toBe(vectors.identity_file.expected_did);
    expect(v.publicKeyHex).toBe(demo.public_key_hex);
    expect(v.motebit_id).toBe(demo.sovereign_motebit_id);
    expect(v.sovereign).toBe(true);
    expect(v.doc?.governance).toEqual(GOVERNANCE_PRESETS.personal);
  });

  it("round-trips: emitting the parsed document reproduces the YAML byte for byte", () => {
    const { doc, yaml, markdown } = parseIdentityFile(identityFile);
    expect(emitIdentityYaml(doc)).toBe(yaml);
    expect(markdown).toBe("");
  });

  it("re-signs to the identical file", async () => {
    const { doc } = parseIdentityFile(identityFile);
    expect(await signIdentityFile(doc, await createSigner(vectors.identity_file.signer_seed_hex))).toBe(identityFile);
  });

  it("normalises CRLF to LF before verifying", async () => {
    const crlf = identityFile.replace(/\n/g, "\r\n");
    expect(crlf).not.toBe(identityFile);
    const v = await verifyIdentityFile(crlf);
    expect(v).toMatchObject({ valid: true, errors: [], signer: demo.did_key });
  });

  it("keeps unsigned Markdown after the signature as Markdown", async () => {
    const withNotes = identityFile + "\n# About me\n\nNot signed.\n";
    expect((await verifyIdentityFile(withNotes)).valid).toBe(true);
    expect(parseIdentityFile(withNotes).markdown).toBe("\n# About me\n\nNot signed.\n");
  });
});

describe("identity file: creating and signing", () => {
  const now = new Date("2026-01-01T00:00:00.000Z");

  it("a personal identity is the vector's document plus its type", async () => {
    const doc = await createIdentityDoc({ publicKeyHex: demo.public_key_hex, now });
    const { type, ...rest } = doc;
    expect(type).toBe("personal");
    expect(rest).toEqual(parseIdentityFile(identityFile).doc);
    const file = await signIdentityFile(doc, await createSigner(demo.seed_hex));
    expect(file.split("\n").slice(0, 6)).toEqual([
      "---", 'spec: "motebit/identity@1.0"', `motebit_id: "${demo.sovereign_motebit_id}"`, 'created_at: "2026-01-01T00:00:00.000Z"',
      `owner_id: "${demo.sovereign_motebit_id}"`, 'type: "personal"',
    ]);
    expect(await verifyIdentityFile(file)).toMatchObject({ valid: true, sovereign: true });
  });

  it("a service identity runs up to R3_EXECUTE and carries its name", async () => {
    const doc = await createIdentityDoc({ publicKeyHex: fill.public_key_hex, type: "service", name: "web-reader", now });
    expect(doc.motebit_id).toBe(fill.sovereign_motebit_id);
    expect(doc.owner_id).toBe(fill.sovereign_motebit_id);
    expect(doc.service_name).toBe("web-reader");
    expect(doc.governance).toEqual({
      trust_mode: "guarded", max_risk_auto: "R3_EXECUTE", require_approval_above: "R3_EXECUTE", deny_above: "R3_EXECUTE", operator_mode: false,
    });
    const yaml = emitIdentityYaml(doc);
    expect(yaml).toContain('type: "service"\nservice_name: "web-reader"\nidentity:\n');
    expect(doc.created_at).toBe("2026-01-01T00:00:00.000Z");
  });

  it("emits fields in docs/protocol.md §3 order and style whatever order the object has", async () => {
    const doc = await createIdentityDoc({ publicKeyHex: fill.public_key_hex, type: "service", name: "svc", now });
    const shuffled = Object.fromEntries(Object.entries({
      ...doc,
      capabilities: ["read_url", "web_search"],
      devices: [{ registered_at: "2026-01-01T00:00:00.000Z", public_key: fill.public_key_hex, name: "laptop", device_id: "d-1" }],
      terms_url: "https://example.com/terms",
      service_description: 'Reads "pages"',
    }).reverse()) as unknown as typeof doc;
    expect(emitIdentityYaml(shuffled)).toBe([
      'spec: "motebit/identity@1.0"',
      `motebit_id: "${fill.sovereign_motebit_id}"`,
      'created_at: "2026-01-01T00:00:00.000Z"',
      `owner_id: "${fill.sovereign_motebit_id}"`,
      'type: "service"',
      'service_name: "svc"',
      'service_description: "Reads \\"pages\\""',
      "capabilities:",
      '  - "read_url"',
      '  - "web_search"',
      'terms_url: "https://example.com/terms"',
      "identity:",
      '  algorithm: "Ed25519"',
      `  public_key: "${fill.public_key_hex}"`,
      "governance:",
      '  trust_mode: "guarded"',
      '  max_risk_auto: "R3_EXECUTE"',
      '  require_approval_above: "R3_EXECUTE"',
      '  deny_above: "R3_EXECUTE"',
      "  operator_mode: false",
      "privacy:",
      '  default_sensitivity: "personal"',
      "  retention_days:",
      "    none: 365",
      "    personal: 90",
      "    medical: 30",
      "    financial: 30",
      "    secret: 7",
      "  fail_closed: true",
      "memory:",
      "  half_life_days: 7",
      "  confidence_threshold: 0.3",
      "  per_turn_limit: 5",
      "devices:",
      '  - device_id: "d-1"',
      '    name: "laptop"',
      `    public_key: "${fill.public_key_hex}"`,
      '    registered_at: "2026-01-01T00:00:00.000Z"',
    ].join("\n"));
    // ... and what it emits parses back to the same data and verifies once signed
    const file = await signIdentityFile(shuffled, await createSigner(fill.seed_hex), "notes\n");
    expect(parseIdentityFile(file).doc).toEqual(JSON.parse(JSON.stringify(shuffled)));
    expect((await verifyIdentityFile(file)).valid).toBe(true);
  });

  it("emits guardian/succession blocks and empty collections, and reads them back", async () => {
    const doc = {
      ...(await createIdentityDoc({ publicKeyHex: demo.public_key_hex, now })),
      guardian: { public_key: fill.public_key_hex, contacts: [], meta: {}, nested: [["a"], { k: null }] },
      succession: [{ from: "a", to: "b" }, "plain"],
    };
    const yaml = emitIdentityYaml(doc);
    expect(yaml).toContain(
      'guardian:\n  public_key: "' + fill.public_key_hex + '"\n  contacts: []\n  meta: {}\n  nested:\n    - - "a"\n    - k: null\nsuccession:\n  - from: "a"\n    to: "b"\n  - "plain"',
    );
    const file = await signIdentityFile(doc, await createSigner(demo.seed_hex));
    expect(parseIdentityFile(file).doc).toEqual(doc);
  });

  it("refuses to sign with a key that is not the document's", async () => {
    const doc = await createIdentityDoc({ publicKeyHex: demo.public_key_hex, now });
    await expect(signIdentityFile(doc, await createSigner(fill.seed_hex))).rejects.toThrow("identity.public_key does not match the signing key");
    await expect(createIdentityDoc({ publicKeyHex: "abc" })).rejects.toThrow(ProtocolError);
    await expect(createIdentityDoc({ publicKeyHex: demo.public_key_hex, type: "robot" as "service" })).rejects.toThrow(
      'unknown identity type "robot" (expected personal or service)',
    );
  });
});

describe("identity file: refusals name the exact problem", () => {
  const yaml = parseIdentityFile(identityFile).yaml;

  async function errorsOf(text: string): Promise<string[]> {
    const v = await verifyIdentityFile(text);
    expect(v.valid).toBe(false);
    return v.errors;
  }

  it("refuses the legacy Ed25519 signature comment", async () => {
    const legacy = identityFile.replace("motebit:sig:motebit-jcs-ed25519-hex-v1:", "motebit:sig:Ed25519:");
    expect(await errorsOf(legacy)).toEqual([
      'identity file uses the legacy signature format "motebit:sig:Ed25519"; re-sign it with motebit-jcs-ed25519-hex-v1',
    ]);
  });

  it("refuses an unknown suite, a missing or short signature", async () => {
    expect(await errorsOf(identityFile.replace("motebit-jcs-ed25519-hex-v1", "motebit-jcs-ed25519-hex-v2"))).toEqual([
      'identity file signature uses unsupported suite "motebit-jcs-ed25519-hex-v2"',
    ]);
    expect(await errorsOf(identityFile.replace(SIG_LINE, ""))).toEqual([
      'identity file has no signature comment "<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:<hex> -->" after the frontmatter',
    ]);
    expect(await errorsOf(identityFile.replace(/[0-9a-f]{2} -->/, " -->"))).toEqual([
      "identity file signature must be 64 bytes as 128 lowercase hex chars",
    ]);
  });

  it("refuses a missing or unclosed frontmatter", async () => {
    expect(await errorsOf("spec: x\n")).toEqual(['identity file must start with a "---" line (YAML frontmatter)']);
    expect(await errorsOf("---\n" + yaml + "\n")).toEqual(['identity file has no closing "---" line after the YAML frontmatter']);
    expect(await errorsOf("---\n" + yaml + "\n---")).toEqual([
      'identity file has no signature comment "<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:<hex> -->" after the frontmatter',
    ]);
  });

  it("refuses single-quoted strings, anchors, aliases, tags and block scalars", async () => {
    const cases: [string, string][] = [
      [yaml.replace('trust_mode: "guarded"', "trust_mode: 'guarded'"), "identity file YAML line 10: single-quoted strings are not supported; use double quotes"],
      [yaml.replace("governance:", "governance: &gov"), "identity file YAML line 9: anchors (&) are not supported"],
      [yaml + "\nagain: *gov", "identity file YAML line 29: aliases (*) are not supported"],
      [yaml.replace('algorithm: "Ed25519"', 'algorithm: !!str "Ed25519"'), "identity file YAML line 7: tags (!) are not supported"],
      [yaml.replace('trust_mode: "guarded"', "trust_mode: |"), "identity file YAML line 10: block scalars (| and >) are not supported"],
      [yaml.replace("devices: []", "devices:\n  - 'x'"), "identity file YAML line 29: single-quoted strings are not supported; use double quotes"],
      [yaml.replace("devices: []", "devices:\n\t- \"x\""), "identity file YAML line 29: tabs are not allowed for indentation"],
      [yaml.replace("memory:", "memory:\n   odd: 1"), "identity file YAML line 26: bad indentation"],
      [yaml + '\nspec: "again"', 'identity file YAML line 29: duplicate key "spec"'],
    ];
    for (const [badYaml, message] of cases) {
      // signed properly, so only the YAML subset rule can be what refuses it
      expect(await errorsOf(await signedWithYaml(badYaml))).toEqual([message]);
    }
  });

  it("refuses a wrong spec, algorithm or key shape", async () => {
    expect(await errorsOf(await signedWithYaml(yaml.replace("motebit/identity@1.0", "motebit/identity@2.0")))).toEqual([
      'identity file spec is "motebit/identity@2.0", expected "motebit/identity@1.0"',
    ]);
    expect(await errorsOf(await signedWithYaml(yaml.replace('algorithm: "Ed25519"', 'algorithm: "RSA"')))).toEqual([
      'identity.algorithm is "RSA", expected "Ed25519"',
    ]);
    expect(await errorsOf(await signedWithYaml(yaml.replace(/public_key: "[0-9a-f]+"/, 'public_key: "abcd"')))).toEqual([
      "identity.public_key must be a 32-byte Ed25519 key (64 hex chars)",
    ]);
  });

  it("refuses a signature by another key", async () => {
    const v = await verifyIdentityFile(await signedWithYaml(yaml, fill.seed_hex));
    expect(v.valid).toBe(false);
    expect(v.errors).toEqual(["identity file signature does not verify against identity.public_key"]);
    expect(v.signer).toBe(demo.did_key);
  });

  it("refuses a sovereign-looking motebit_id that is not the key's", async () => {
    const otherId = await sovereignMotebitId(fill.public_key_hex);
    const v = await verifyIdentityFile(await signedWithYaml(yaml.replace(`motebit_id: "${demo.sovereign_motebit_id}"`, `motebit_id: "${otherId}"`)));
    expect(v.errors).toEqual([
      `motebit_id "${otherId}" has the sovereign form but is not the id of the signing key (expected "${demo.sovereign_motebit_id}")`,
    ]);
  });

  it("accepts an older random motebit_id, reporting it as not sovereign", async () => {
    const legacyId = "2f1d0c3e-5b7a-4c1d-9e2f-3a4b5c6d7e8f";
    const v = await verifyIdentityFile(await signedWithYaml(yaml.replace(`motebit_id: "${demo.sovereign_motebit_id}"`, `motebit_id: "${legacyId}"`)));
    expect(v).toMatchObject({ valid: true, sovereign: false, motebit_id: legacyId, errors: [] });
  });

  it("parseIdentityFile throws ProtocolError", () => {
    expect(() => parseIdentityFile("nonsense")).toThrow(ProtocolError);
  });
});

describe("identity file: reading the wider YAML subset", () => {
  it("accepts plain scalars, comments, lists at the key's indent and JSON flow lists", async () => {
    const yaml = parseIdentityFile(identityFile).yaml
      .replace('trust_mode: "guarded"', "trust_mode: guarded   # plain scalar")
      .replace("devices: []", '# devices follow\ndevices:\n- device_id: d-1\n  name: "laptop"\ncapabilities: ["a", "b"]\nnote: ~');
    const v = await verifyIdentityFile(await signedWithYaml(yaml));
    expect(v.errors).toEqual([]);
    expect(v.doc?.governance.trust_mode).toBe("guarded");
    expect(v.doc?.devices).toEqual([{ device_id: "d-1", name: "laptop" }]);
    expect(v.doc?.capabilities).toEqual(["a", "b"]);
    expect((v.doc as unknown as Record<string, unknown>).note).toBeNull();
  });
});
