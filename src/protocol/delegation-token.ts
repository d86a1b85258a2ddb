import { base64urlDecode, base64urlEncode } from "./base64url.js";
import { utf8 } from "./bytes.js";
import { canonicalJson } from "./canonical-json.js";
import type { Signer } from "./ed25519.js";
import { verifySignature } from "./ed25519.js";
import { ProtocolError } from "./errors.js";
import { SUITE_RECEIPT } from "./suites.js";
import { echo } from "../bounded/echo.js";

export interface DelegationToken {
  delegator_id: string;
  delegator_public_key: string;
  delegate_id: string;
  delegate_public_key: string;
  scope: string;
  issued_at: number;
  expires_at: number;
  not_before?: number;
  grant_id?: string;
  suite: "motebit-jcs-ed25519-b64-v1";
  signature: string;
}

export const MAX_DELEGATION_TOKEN_CHARS = 64 * 1024;
const BODY_FIELDS = ["delegator_id", "delegator_public_key", "delegate_id", "delegate_public_key", "scope", "issued_at", "expires_at",
  "not_before", "grant_id"] as const;

/** Signed by the delegator over canonical JSON of everything but `signature` (docs/protocol.md §6). */
export async function signDelegationToken(body: Omit<DelegationToken, "suite" | "signature">, signer: Signer): Promise<DelegationToken> {
  if (body.delegator_public_key?.toLowerCase() !== signer.publicKeyHex) {
    throw new ProtocolError("delegator_public_key does not match the signing key");
  }
  const out: Record<string, unknown> = {};
  for (const k of BODY_FIELDS) if (body[k] !== undefined) out[k] = body[k];
  out.suite = SUITE_RECEIPT;
  out.signature = base64urlEncode(await signer.sign(utf8(canonicalJson(out))));
  return out as unknown as DelegationToken;
}

/** "*" allows everything; otherwise a comma list of capability names (whitespace around names ignored). */
export function scopeAllows(scope: string, capability: string): boolean {
  if (typeof scope !== "string" || typeof capability !== "string") return false;
  return scope.split(",").some((s) => {
    const t = s.trim();
    return t === "*" || (t !== "" && t === capability.trim());
  });
}

type Verdict = { ok: true; token: DelegationToken } | { ok: false; error: string };

/**
 * Check, in order (docs/protocol.md §6): JSON, suite, signature, expiry, not-before, delegate, scope.
 * Never throws; each refusal is the exact "Denied: …" text a tool result carries.
 */
export async function verifyDelegationToken(
  json: string,
  opts: { now?: number; delegateId: string; requiredCapabilities?: string[] },
): Promise<Verdict> {
  const deny = (error: string): Verdict => ({ ok: false, error });
  try {
    if (typeof json !== "string" || json.length > MAX_DELEGATION_TOKEN_CHARS) return deny("Denied: delegation_token is not valid JSON");
    let t: unknown;
    try {
      t = JSON.parse(json);
    } catch {
      return deny("Denied: delegation_token is not valid JSON");
    }
    if (t === null || typeof t !== "object" || Array.isArray(t)) return deny("Denied: delegation_token is not valid JSON");
    const d = t as Record<string, unknown>;
    if (d.suite !== SUITE_RECEIPT) return deny(`Denied: delegation token uses unsupported suite ${JSON.stringify(echo(d.suite ?? ""))}`);
    const malformed = shapeProblem(d);
    if (malformed) return deny(`Denied: delegation token is malformed: ${malformed}`);
    let sig: Uint8Array;
    try {
      sig = base64urlDecode(d.signature as string);
    } catch {
      return deny("Denied: delegation token has invalid signature");
    }
    const { signature: _omit, ...body } = d;
    if (!(await verifySignature(d.delegator_public_key as string, utf8(canonicalJson(body)), sig))) {
      return deny("Denied: delegation token has invalid signature");
    }
    const now = opts.now ?? Date.now();
    if ((d.expires_at as number) < now) return deny("Denied: delegation token has expired");
    if (d.not_before !== undefined && (d.not_before as number) > now) return deny("Denied: delegation token is not yet valid");
    if (d.delegate_id !== opts.delegateId) return deny("Denied: delegation token is not for this motebit");
    for (const cap of opts.requiredCapabilities ?? []) {
      if (!scopeAllows(d.scope as string, cap)) return deny(`Denied: capability "${echo(cap)}" is not within delegated scope "${echo(d.scope)}"`);
    }
    return { ok: true, token: d as unknown as DelegationToken };
  } catch (e) {
    return deny(`Denied: delegation token could not be verified: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function shapeProblem(d: Record<string, unknown>): string | null {
  for (const k of ["delegator_id", "delegate_id", "delegate_public_key", "scope", "signature"]) {
    if (typeof d[k] !== "string") return `${k} must be a string`;
  }
  if (typeof d.delegator_public_key !== "string" || !/^[0-9a-fA-F]{64}$/.test(d.delegator_public_key)) {
    return "delegator_public_key must be a 32-byte Ed25519 key (64 hex chars)";
  }
  for (const k of ["issued_at", "expires_at"]) if (typeof d[k] !== "number" || !Number.isFinite(d[k])) return `${k} must be a number`;
  if (d.not_before !== undefined && (typeof d.not_before !== "number" || !Number.isFinite(d.not_before))) return "not_before must be a number";
  if (d.grant_id !== undefined && typeof d.grant_id !== "string") return "grant_id must be a string";
  return null;
}
