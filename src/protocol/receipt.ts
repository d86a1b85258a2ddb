import { base64urlDecode, base64urlEncode } from "./base64url.js";
import { utf8 } from "./bytes.js";
import { canonicalJson } from "./canonical-json.js";
import { publicKeyToDidKey } from "./did-key.js";
import type { Signer } from "./ed25519.js";
import { verifySignature } from "./ed25519.js";
import { isSovereignIdFor } from "./motebit-id.js";
import { sha256Hex } from "./sha256.js";
import { SUITE_RECEIPT } from "./suites.js";
import type { Verdict } from "./verdict.js";

export interface ExecutionReceipt {
  task_id: string;
  motebit_id: string;
  device_id: string;
  submitted_at: number;
  completed_at: number;
  status: "completed" | "failed" | "denied";
  result: string;
  tools_used: string[];
  memories_formed: number;
  prompt_hash: string;
  result_hash: string;
  relay_task_id?: string;
  delegated_scope?: string;
  delegation_receipts?: ExecutionReceipt[];
  invocation_origin?: "user-tap" | "ai-loop" | "scheduled" | "agent-to-agent";
  public_key: string;
  suite: "motebit-jcs-ed25519-b64-v1";
  signature: string;
}
export type UnsignedReceipt = Omit<ExecutionReceipt, "public_key" | "suite" | "signature">;

export interface ReceiptVerdict extends Verdict {
  /** Path of the first nested receipt that failed, e.g. "delegation_receipts[1].delegation_receipts[0]". */
  failed_path?: string;
}

/** Nested receipts may go this many levels below the top receipt; deeper is refused. */
export const MAX_RECEIPT_DEPTH = 10;
export const MAX_RECEIPT_CHARS = 1024 * 1024;

// The docs/protocol.md §4 field list in order: the relay refuses a schema-extra field, so signReceipt emits nothing else.
const BODY_FIELDS = ["task_id", "motebit_id", "device_id", "submitted_at", "completed_at", "status", "result", "tools_used",
  "memories_formed", "prompt_hash", "result_hash", "relay_task_id", "delegated_scope", "delegation_receipts", "invocation_origin"] as const;

/** The canonical JSON, signature included, of the receipts signReceipt made: the log's leaf text (src/log/receipt-leaf.ts). */
const signedTexts = new WeakMap<object, string>();

/** Sign a receipt body: drops undefined fields and an empty delegation_receipts, embeds public_key and suite. */
export async function signReceipt(body: UnsignedReceipt, signer: Signer): Promise<ExecutionReceipt> {
  // JCS sorts members, so the signed text is the unsigned one with `signature` between the members sorting before it
  // and those after: written once in two halves, both texts come from one serialisation.
  // `out` keeps the fields' order, which JSON.stringify (the ledger row, the wire) follows.
  const out: Record<string, unknown> = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const put = (k: string, v: unknown) => ((k < "signature" ? before : after)[k] = out[k] = v);
  for (const k of BODY_FIELDS) {
    const v = (body as unknown as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (k === "delegation_receipts" && Array.isArray(v) && v.length === 0) continue;
    put(k, v);
  }
  put("public_key", signer.publicKeyHex);
  put("suite", SUITE_RECEIPT);
  const head = canonicalJson(before).slice(1, -1);
  const tail = canonicalJson(after).slice(1, -1);
  const joined = (...members: string[]) => `{${members.filter((m) => m !== "").join(",")}}`;
  const signature = base64urlEncode(await signer.sign(utf8(joined(head, tail))));
  out.signature = signature;
  signedTexts.set(out, joined(head, `"signature":${JSON.stringify(signature)}`, tail));
  return out as unknown as ExecutionReceipt;
}

/** RFC 8785 canonical JSON of a whole receipt: kept from its signing when signReceipt made it, else written now. */
export function receiptCanonicalJson(receipt: object): string {
  return signedTexts.get(receipt) ?? canonicalJson(receipt);
}

/**
 * Verify a receipt (object or JSON text) and every nested delegation receipt, each under its own embedded key.
 * Never throws: hostile input is a verdict with errors.
 */
export async function verifyReceipt(r: unknown, opts?: { checkResultHash?: boolean }): Promise<ReceiptVerdict> {
  try {
    if (typeof r === "string") {
      if (r.length > MAX_RECEIPT_CHARS) return { valid: false, errors: ["receipt is larger than 1 MiB"] };
      try {
        r = JSON.parse(r);
      } catch {
        return { valid: false, errors: ["receipt is not valid JSON"] };
      }
    }
    if (!isObject(r)) return { valid: false, errors: ["receipt is not a JSON object"] };
    const errors: string[] = [];
    const state = { failedPath: undefined as string | undefined, checkResultHash: opts?.checkResultHash === true };
    const top = await verifyOne(r, "", 0, errors, state);
    const verdict: ReceiptVerdict = { valid: errors.length === 0, errors };
    if (top.signer) verdict.signer = top.signer;
    if (typeof r.motebit_id === "string") verdict.motebit_id = r.motebit_id;
    if (top.sovereign !== undefined) verdict.sovereign = top.sovereign;
    if (state.failedPath) verdict.failed_path = state.failedPath;
    return verdict;
  } catch (e) {
    return { valid: false, errors: [`receipt could not be verified: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

async function verifyOne(
  r: Record<string, unknown>,
  path: string,
  depth: number,
  errors: string[],
  state: { failedPath?: string; checkResultHash: boolean },
): Promise<{ signer?: string; sovereign?: boolean }> {
  const before = errors.length;
  const err = (msg: string) => errors.push(path ? `${path}: ${msg}` : msg);
  const out: { signer?: string; sovereign?: boolean } = {};

  if (r.suite === undefined) err("receipt has no suite");
  else if (r.suite !== SUITE_RECEIPT) err(`receipt uses unsupported suite ${JSON.stringify(r.suite)}`);
  const pub = r.public_key;
  const pubOk = typeof pub === "string" && /^[0-9a-fA-F]{64}$/.test(pub);
  if (!pubOk) err("public_key must be a 32-byte Ed25519 key (64 hex chars)");
  if (typeof r.motebit_id !== "string" || r.motebit_id === "") err("motebit_id must be a non-empty string");
  let sig: Uint8Array | null = null;
  if (typeof r.signature !== "string") err("signature must be a base64url string");
  else {
    try {
      sig = base64urlDecode(r.signature);
      if (sig.length !== 64) {
        err(`signature must be 64 bytes, got ${sig.length}`);
        sig = null;
      }
    } catch (e) {
      err(`signature is not valid base64url: ${(e as Error).message}`);
    }
  }
  // Start the signature check first: it runs off the main thread while the signer's ids are derived.
  let verifying: Promise<boolean> | null = null;
  if (errors.length === before && sig) {
    const { signature: _omit, ...body } = r;
    verifying = verifySignature(pub as string, utf8(canonicalJson(body)), sig);
  }
  if (pubOk) {
    out.signer = publicKeyToDidKey(pub as string);
    out.sovereign = await isSovereignIdFor(r.motebit_id as string, (pub as string).toLowerCase());
  }
  if (verifying && !(await verifying)) err("signature does not verify against public_key");
  if (state.checkResultHash && typeof r.result === "string" && r.result_hash !== (await sha256Hex(r.result))) {
    err("result_hash is not the SHA-256 of result");
  }
  if (state.checkResultHash && typeof r.result !== "string") err("result must be a string");
  // A nested receipt that fails its own checks is the culprit, even if its children fail too.
  if (path && errors.length > before && state.failedPath === undefined) state.failedPath = path;

  const nested = r.delegation_receipts;
  if (nested !== undefined) {
    if (!Array.isArray(nested)) {
      err("delegation_receipts must be an array");
      if (path) state.failedPath ??= path;
    } else {
      for (let i = 0; i < nested.length; i++) {
        const childPath = `${path ? path + "." : ""}delegation_receipts[${i}]`;
        const child = nested[i];
        let refused: string | null = null;
        if (depth + 1 > MAX_RECEIPT_DEPTH) refused = `delegation receipts are nested deeper than ${MAX_RECEIPT_DEPTH} levels`;
        else if (!isObject(child)) refused = "receipt is not a JSON object";
        else await verifyOne(child, childPath, depth + 1, errors, state);
        if (refused) {
          errors.push(`${childPath}: ${refused}`);
          state.failedPath ??= childPath;
        }
      }
    }
  }
  return out;
}
