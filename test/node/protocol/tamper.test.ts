// Change one character anywhere in a signed artefact and it must stop verifying: every position, two ways —
// a low-bit flip (often breaks the syntax) and a step to the next character of the same alphabet (stays
// well-formed, so the signature check itself has to catch it).
import { describe, expect, it } from "vitest";
import { verifyBearerToken, verifyDelegationToken, verifyIdentityFile, verifyReceipt } from "../../../src/protocol/index.js";
import { demo, identityFile, receiptJson, vectors } from "./fixtures.js";

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function variants(text: string, i: number, alphabet?: string): string[] {
  const c = text.charCodeAt(i);
  const flipped = String.fromCharCode(c ^ 1);
  const pos = alphabet ? alphabet.indexOf(text[i]) : -1;
  const stepped = pos >= 0 ? alphabet![(pos + 1) % alphabet!.length] : String.fromCharCode(c === 0x7e ? 0x21 : c + 1);
  return [flipped, stepped].map((ch) => text.slice(0, i) + ch + text.slice(i + 1));
}

describe("tamper: one changed character anywhere is invalid", () => {
  it("identity file", async () => {
    expect((await verifyIdentityFile(identityFile)).valid).toBe(true);
    for (let i = 0; i < identityFile.length; i++) {
      for (const t of variants(identityFile, i)) expect((await verifyIdentityFile(t)).valid, `position ${i}`).toBe(false);
    }
  });

  it("receipt (as JSON text)", async () => {
    for (let i = 0; i < receiptJson.length; i++) {
      for (const t of variants(receiptJson, i)) expect((await verifyReceipt(t)).valid, `position ${i}: ${t.slice(i - 5, i + 5)}`).toBe(false);
    }
  });

  it("bearer token", async () => {
    const token = vectors.tokens.valid_until_2100.token;
    for (let i = 0; i < token.length; i++) {
      for (const t of variants(token, i, token[i] === "." ? undefined : B64URL)) {
        expect((await verifyBearerToken(t, demo.public_key_hex)).ok, `position ${i}`).toBe(false);
      }
    }
  });

  it("delegation token", async () => {
    const json = vectors.delegation.json_arg;
    const opts = { delegateId: demo.sovereign_motebit_id };
    expect((await verifyDelegationToken(json, opts)).ok).toBe(true);
    for (let i = 0; i < json.length; i++) {
      for (const t of variants(json, i)) {
        const v = await verifyDelegationToken(t, opts);
        expect(v.ok, `position ${i}: ${t.slice(i - 5, i + 5)}`).toBe(false);
      }
    }
  });
});
