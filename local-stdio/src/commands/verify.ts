import { readFileSync, statSync } from "node:fs";
import {
  didKeyToPublicKey, fromUtf8, withoutSignedPrefix, isSovereignIdFor, parseBearerToken, publicKeyToDidKey, verifyBearerToken, verifyDelegationToken,
  verifyIdentityFile, verifyReceipt,
} from "../../../src/protocol/index.js";
import type { Command } from "../cli.js";
import { flagString, parseFlags } from "../flags.js";

const HELP = `Usage: motebit-local verify FILE|- [--key HEX|did:key]

Verify a signed motebit artefact read from FILE (or stdin with "-"): an identity file
(motebit.md), an ExecutionReceipt (JSON), a delegation token (JSON) or a bearer token
("motebit:" prefix optional). Prints one JSON verdict on stdout:
  {"valid":…,"type":"identity"|"receipt"|"bearer_token"|"delegation_token","signer":"did:key:…",
   "motebit_id":…,"sovereign":…,"errors":[…]}   (+ "failed_path" for nested receipts, "reason" for tokens)

Options:
  --key K   the signer's public key (64 hex chars or did:key). Required for bearer tokens,
            which carry no key; for the other types it must match the embedded key.

Bearer tokens are checked as the primitive only (suite, signature, expiry); audience,
subject, lifetime and replay are the receiving server's policy.
Receipts are also checked against their result_hash.

Exit status: 0 valid, 1 invalid, 2 unreadable or unrecognised input.`;

const SPEC = { key: "string" } as const;
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const TOKEN_RE = /^[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}$/;

type ArtefactType = "identity" | "receipt" | "bearer_token" | "delegation_token" | "unknown";
interface Verdict {
  valid: boolean;
  type: ArtefactType;
  signer?: string;
  motebit_id?: string;
  sovereign?: boolean;
  errors: string[];
  failed_path?: string;
  reason?: string;
}

// The fixed texts of delegation refusals, as machine reasons like a bearer token's.
const DELEGATION_REASONS: [RegExp, string][] = [
  [/not valid JSON/, "token_unparseable"],
  [/unsupported suite/, "suite_unsupported"],
  [/malformed/, "missing_claims"],
  [/invalid signature/, "signature_invalid"],
  [/expired/, "expired"],
  [/not yet valid/, "not_yet_valid"],
];

async function readInput(source: string): Promise<Uint8Array> {
  if (source === "-") {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > MAX_INPUT_BYTES) throw new Error("input is larger than 16 MiB");
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }
  if (statSync(source).size > MAX_INPUT_BYTES) throw new Error("file is larger than 16 MiB");
  return readFileSync(source);
}

function print(v: Verdict): number {
  const ordered: Verdict = { valid: v.valid, type: v.type, signer: v.signer, motebit_id: v.motebit_id, sovereign: v.sovereign, errors: v.errors,
    failed_path: v.failed_path, reason: v.reason };
  process.stdout.write(JSON.stringify(ordered) + "\n");
  if (v.type === "unknown") return 2;
  return v.valid ? 0 : 1;
}

function unreadable(message: string): number {
  return print({ valid: false, type: "unknown", errors: [message] });
}

/** When --key is given, the artefact must be signed by it. */
function keyMismatch(expectedHex: string | undefined, actualHex: string | undefined): string[] {
  if (expectedHex === undefined || actualHex === undefined || expectedHex === actualHex.toLowerCase()) return [];
  return [`signed by ${publicKeyToDidKey(actualHex)}, not by the --key given (${publicKeyToDidKey(expectedHex)})`];
}

async function verifyText(text: string, keyHex: string | undefined): Promise<Verdict | null> {
  const trimmed = text.trim();
  if (text.replace(/^\uFEFF/, "").startsWith("---")) {
    const v = await verifyIdentityFile(text);
    const errors = [...v.errors, ...keyMismatch(keyHex, v.publicKeyHex)];
    return { valid: errors.length === 0, type: "identity", signer: v.signer, motebit_id: v.motebit_id, sovereign: v.sovereign, errors };
  }
  if (trimmed.startsWith("{")) {
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch {
      return null;
    }
    const o = obj as Record<string, unknown>;
    if ("delegator_id" in o) return verifyDelegation(trimmed, o, keyHex);
    if ("task_id" in o) {
      const v = await verifyReceipt(o, { checkResultHash: true });
      const errors = [...v.errors, ...keyMismatch(keyHex, typeof o.public_key === "string" && v.signer ? o.public_key : undefined)];
      return { valid: errors.length === 0, type: "receipt", signer: v.signer, motebit_id: v.motebit_id, sovereign: v.sovereign, errors,
        failed_path: v.failed_path };
    }
    return null;
  }
  const token = withoutSignedPrefix(trimmed);
  if (TOKEN_RE.test(token)) return verifyToken(token, keyHex);
  return null;
}

async function verifyDelegation(json: string, o: Record<string, unknown>, keyHex: string | undefined): Promise<Verdict> {
  // The CLI is nobody's delegate: check JSON, suite, signature and validity window, not the audience.
  const delegateId = typeof o.delegate_id === "string" ? o.delegate_id : "";
  const v = await verifyDelegationToken(json, { delegateId });
  const pub = typeof o.delegator_public_key === "string" && /^[0-9a-fA-F]{64}$/.test(o.delegator_public_key) ? o.delegator_public_key : undefined;
  const motebitId = typeof o.delegator_id === "string" ? o.delegator_id : undefined;
  const mismatch = keyMismatch(keyHex, pub);
  const errors = [...(v.ok ? [] : [v.error]), ...mismatch];
  // a token signed by someone other than the --key given is, to this caller, a bad signature
  const reason = !v.ok ? (DELEGATION_REASONS.find(([re]) => re.test(v.error))?.[1] ?? "token_unparseable")
    : mismatch.length > 0 ? "signature_invalid" : undefined;
  return {
    valid: errors.length === 0,
    type: "delegation_token",
    signer: pub ? publicKeyToDidKey(pub) : undefined,
    motebit_id: motebitId,
    sovereign: pub && motebitId ? await isSovereignIdFor(motebitId, pub.toLowerCase()) : undefined,
    errors,
    reason,
  };
}

async function verifyToken(token: string, keyHex: string | undefined): Promise<Verdict> {
  const parsed = parseBearerToken(token);
  const mid = parsed.ok ? parsed.claims.mid : undefined;
  if (!parsed.ok) return { valid: false, type: "bearer_token", errors: [`bearer token refused: ${parsed.reason}`], reason: parsed.reason };
  if (keyHex === undefined) {
    return { valid: false, type: "bearer_token", motebit_id: mid, reason: "no_key_for_caller",
      errors: ["a bearer token carries no key: pass the signer's public key with --key HEX|did:key"] };
  }
  const v = await verifyBearerToken(token, keyHex);
  return {
    valid: v.ok,
    type: "bearer_token",
    signer: publicKeyToDidKey(keyHex),
    motebit_id: mid,
    sovereign: mid ? await isSovereignIdFor(mid, keyHex) : undefined,
    errors: v.ok ? [] : [`bearer token refused: ${v.reason}`],
    reason: v.ok ? undefined : v.reason,
  };
}

function parseKey(k: string): string {
  if (/^[0-9a-fA-F]{64}$/.test(k)) return k.toLowerCase();
  if (k.startsWith("did:key:")) return didKeyToPublicKey(k);
  throw new Error("--key must be a 64-hex-char Ed25519 public key or a did:key");
}

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "verify");
  if (flags.positionals.length !== 1) {
    process.stderr.write('motebit-local verify: give exactly one FILE, or "-" for stdin\nRun "motebit-local verify --help" for usage.\n');
    return 2;
  }
  const source = flags.positionals[0];
  let keyHex: string | undefined;
  const key = flagString(flags, "key");
  if (key !== undefined) {
    try {
      keyHex = parseKey(key);
    } catch (e) {
      return unreadable((e as Error).message.startsWith("--key") ? (e as Error).message : `--key: ${(e as Error).message}`);
    }
  }
  let text: string;
  try {
    text = fromUtf8(await readInput(source));
  } catch (e) {
    const label = source === "-" ? "stdin" : source;
    return unreadable(`cannot read ${label}: ${(e as Error).message}`);
  }
  const verdict = await verifyText(text, keyHex);
  if (!verdict) return unreadable("input is not an identity file, receipt, delegation token or bearer token");
  return print(verdict);
}

export const command: Command = { summary: "verify an identity file, receipt, delegation token or bearer token", help: HELP, run };
