import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import {
  consistencyProblem, didKeyToPublicKey, inclusionProblem, looksLikeTreeHead, receiptLeafHash, treeHeadProblem, fromUtf8, isSovereignIdFor, parseBearerToken, publicKeyToDidKey, stripIdentityTag,
  type Verdict as ProtocolVerdict, verifyBearerToken, verifyDelegationToken, verifyIdentityFile, verifyReceipt,
  withoutSignedPrefix,
} from "motebit-edge/core";
import type { Command } from "./command.js";
import { flagString, parseFlags, UsageError } from "../flags.js";
import { artefactsInReply, ReplyError } from "../reply-artefacts.js";
import { CliError } from "../cli-error.js";
import { fetchLog, logBase, LogNotFound } from "../log-fetch.js";

const HELP = `Usage: motebit-local verify FILE|- [--key HEX|did:key] [--save FILE]
       motebit-local verify RECEIPT|HEAD [--log URL | --head HEAD2 --proof PROOF]

Verify a signed motebit artefact read from FILE (or stdin with "-"): an identity file
(motebit.md), an ExecutionReceipt (JSON), a delegation token (JSON), a bearer token
("motebit:" prefix optional) or a signed tree head of the motebit's transparency log (JSON). Receipts and delegation tokens may also come as a JSON array or
as JSON Lines (one per line), and a {"receipt": …} wrapper counts as its receipt, so
"motebit-local receipts | motebit-local verify -" checks a whole ledger; a tool answer's
trailing identity tag line is ignored. An MCP reply works as it came: a JSON-RPC response (or
an SSE stream of them, "data:" lines) to tools/call or resources/read, or a bare tool result —
the receipt escaped in its text is taken out and verified. Prints one JSON verdict per artefact on stdout:
  {"valid":…,"type":"identity"|"receipt"|"bearer_token"|"delegation_token","signer":"did:key:…",
   "motebit_id":…,"sovereign":…,"errors":[…]}   (+ "failed_path" for nested receipts, "reason" for tokens,
   "item" (0, 1, …) when the input held several; the exit status is then the worst verdict's)

Options:
  --key K   the signer's public key (64 hex chars or did:key). Required for bearer tokens,
            which carry no key; for the other types it must match the embedded key.
  --save F  write the receipt(s) found to F as plain JSON (one receipt: the object; several: an
            array), only when every artefact is a valid receipt; F is replaced.

The transparency log (docs/protocol.md §10), for one receipt or one tree head:
  --log URL     the motebit's URL (its root, or /m/<name> in a fleet): fetch its signed tree head
                and check that the receipt is in it (an inclusion proof), or that the tree head
                given extends to it (a consistency proof: the log was not rewritten since).
  --head HEAD2  offline instead: a signed tree head (GET <URL>/log/head, saved) ...
  --proof PROOF ... and the proof for it: GET <URL>/log/inclusion?leaf_hash=…&tree_size=… for a
                receipt, GET <URL>/log/consistency?first=…&second=… for a tree head (the earlier).
  The head must be signed by the receipt's (or the earlier head's) key. The verdict then carries
  "log": {"tree_size", "root_hash", "leaf_index"?}; a failed check is an error like any other.

Bearer tokens are checked as the primitive only (suite, signature, expiry); audience,
subject, lifetime and replay are the receiving server's policy.
Receipts are also checked against their result_hash.

Exit status (like grep and diff: 2 is trouble): 0 valid, 1 invalid, 2 usage error or input
that cannot be read or recognised.`;

export const SPEC = { key: "string", save: "string", log: "string", head: "string", proof: "string" } as const;
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const TOKEN_RE = /^[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}$/;

type ArtefactType = "identity" | "receipt" | "bearer_token" | "delegation_token" | "tree_head" | "unknown";
interface Verdict extends ProtocolVerdict {
  type: ArtefactType;
  failed_path?: string;
  reason?: string;
  /** The artefact's place in a multi-artefact input (array or JSON Lines). */
  item?: number;
  /** The receipt itself, for --save (never printed). */
  receipt?: Record<string, unknown>;
  /** The artefact as read (a receipt or tree head), for the log checks (never printed). */
  artefact?: Record<string, unknown>;
  /** Where the log checks placed it. */
  log?: { tree_size: number; root_hash: string; leaf_index?: number };
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
    failed_path: v.failed_path, reason: v.reason, item: v.item, log: v.log };
  process.stdout.write(JSON.stringify(ordered) + "\n");
  if (v.type === "unknown") return 2;
  return v.valid ? 0 : 1;
}

const NOT_RECOGNISED = "input is not an identity file, receipt, delegation token or bearer token";

function unreadable(message: string): number {
  return print({ valid: false, type: "unknown", errors: [message] });
}

/** When --key is given, the artefact must be signed by it. */
function keyMismatch(expectedHex: string | undefined, actualHex: string | undefined): string[] {
  if (expectedHex === undefined || actualHex === undefined || expectedHex === actualHex.toLowerCase()) return [];
  return [`signed by ${publicKeyToDidKey(actualHex)}, not by the --key given (${publicKeyToDidKey(expectedHex)})`];
}

/**
 * The JSON objects in `text`: one object, an array of objects, or JSON Lines (one object per line) — so
 * `motebit-local receipts | motebit-local verify -` works. A `{receipt}` wrapper (a ledger row, a relay answer)
 * stands for the receipt inside. null when the text is none of these.
 */
function jsonObjects(text: string): Record<string, unknown>[] | null {
  const parse = (t: string): unknown => {
    try {
      return JSON.parse(t);
    } catch {
      return undefined;
    }
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const whole = parse(text);
  const items = whole !== undefined ? (Array.isArray(whole) ? whole : [whole]) : text.split("\n").filter((l) => l.trim() !== "").map(parse);
  if (items.length === 0 || !items.every(isObject)) return null;
  return items.map((o) => (!("task_id" in o) && isObject(o.receipt) ? o.receipt : o));
}

async function verifyObject(o: Record<string, unknown>, keyHex: string | undefined): Promise<Verdict | null> {
  if (looksLikeTreeHead(o)) {
    const pub = typeof o.public_key === "string" && /^[0-9a-f]{64}$/.test(o.public_key) ? o.public_key : undefined;
    const bad = await treeHeadProblem(o);
    const errors = [...(bad === null ? [] : [bad]), ...keyMismatch(keyHex, pub)];
    return { valid: errors.length === 0, type: "tree_head", signer: pub && publicKeyToDidKey(pub), motebit_id: typeof o.motebit_id === "string" ? o.motebit_id : undefined,
      errors, artefact: o };
  }
  if ("delegator_id" in o) return verifyDelegation(JSON.stringify(o), o, keyHex);
  if ("task_id" in o) {
    const v = await verifyReceipt(o, { checkResultHash: true });
    const errors = [...v.errors, ...keyMismatch(keyHex, typeof o.public_key === "string" && v.signer ? o.public_key : undefined)];
    return { valid: errors.length === 0, type: "receipt", signer: v.signer, motebit_id: v.motebit_id, sovereign: v.sovereign, errors,
      failed_path: v.failed_path, receipt: o, artefact: o };
  }
  return null;
}

/** One verdict per artefact in the input; null when nothing in it is recognisable. */
async function verifyText(text: string, keyHex: string | undefined): Promise<(Verdict | null)[] | null> {
  if (text.replace(/^\uFEFF/, "").startsWith("---")) {
    const v = await verifyIdentityFile(text);
    const errors = [...v.errors, ...keyMismatch(keyHex, v.publicKeyHex)];
    return [{ valid: errors.length === 0, type: "identity", signer: v.signer, motebit_id: v.motebit_id, sovereign: v.sovereign, errors }];
  }
  // A tool answer pasted whole still ends with its identity tag line.
  const trimmed = stripIdentityTag(text).trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const objects = jsonObjects(trimmed);
    if (objects === null) return null;
    const verdicts = await Promise.all(objects.map((o) => verifyObject(o, keyHex)));
    return objects.length === 1 && verdicts[0] === null ? null : verdicts;
  }
  const token = withoutSignedPrefix(trimmed);
  if (TOKEN_RE.test(token)) return [await verifyToken(token, keyHex)];
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
  let inReply: string[] | null;
  try {
    inReply = artefactsInReply(text);
  } catch (e) {
    if (e instanceof ReplyError) return unreadable(e.message);
    throw e;
  }
  const found = inReply === null ? [await verifyText(text, keyHex)] : await Promise.all(inReply.map((t) => verifyText(t, keyHex)));
  if (found.every((v) => v === null)) return unreadable(inReply === null ? NOT_RECOGNISED : `the reply holds no signed artefact: ${NOT_RECOGNISED}`);
  const verdicts = found.flatMap((v) => v ?? [null]).map((v) => v ?? { valid: false, type: "unknown" as const, errors: [NOT_RECOGNISED] });
  const logCheck = logSource(flags);
  if (logCheck !== null) {
    if (verdicts.length !== 1 || (verdicts[0].type !== "receipt" && verdicts[0].type !== "tree_head")) {
      return unreadable("--log, --head and --proof check one receipt or one tree head; the input is not one");
    }
    try {
      verdicts[0] = await checkInLog(verdicts[0], logCheck);
    } catch (e) {
      if (e instanceof CliError) return unreadable(e.message);
      throw e;
    }
  }
  let code = 0;
  if (verdicts.length === 1) code = print(verdicts[0]!);
  // Several artefacts: one verdict line each, numbered from 0; the exit status is the worst of them.
  else for (const [i, v] of verdicts.entries()) code = Math.max(code, print({ ...v, item: i }));
  const saveTo = flagString(flags, "save");
  return saveTo === undefined ? code : save(saveTo, verdicts, code);
}

type LogSource = { url: URL } | { head: Record<string, unknown>; proof: Record<string, unknown> };

/** Where the log checks get the head and proof from: --log, or --head with --proof; null when not asked. */
function logSource(flags: ReturnType<typeof parseFlags>): LogSource | null {
  const url = flagString(flags, "log");
  const head = flagString(flags, "head");
  const proof = flagString(flags, "proof");
  if (url === undefined && head === undefined && proof === undefined) return null;
  if (url !== undefined && (head !== undefined || proof !== undefined)) throw new UsageError("give either --log, or --head with --proof");
  if (url !== undefined) return { url: logBase(url) };
  if (head === undefined || proof === undefined) throw new UsageError("--head and --proof go together");
  return { head: readJsonObject(head, "--head"), proof: readJsonObject(proof, "--proof") };
}

function readJsonObject(path: string, flag: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new CliError(`${flag} ${path}: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new CliError(`${flag} ${path}: not a JSON object`);
  return v as Record<string, unknown>;
}

/** The verdict with the log check's outcome: an error when the receipt is not in the head, or the head does not extend the one given. */
async function checkInLog(v: Verdict, src: LogSource): Promise<Verdict> {
  const artefact = v.artefact!;
  let head: Record<string, unknown>;
  let proof: Record<string, unknown>;
  if ("url" in src) {
    head = await fetchLog(src.url, "head");
    const size = String(head.tree_size);
    try {
      proof = v.type === "receipt"
        ? await fetchLog(src.url, `inclusion?leaf_hash=${receiptLeafHash(artefact)}&tree_size=${size}`)
        : await fetchLog(src.url, `consistency?first=${String(artefact.tree_size)}&second=${size}`);
    } catch (e) {
      if (!(e instanceof LogNotFound) || v.type !== "receipt") throw e;
      return { ...v, valid: false, errors: [...v.errors, `log: the log has no leaf for this receipt in its tree of ${size} leaves`] };
    }
  } else {
    ({ head, proof } = src);
  }
  const problem = v.type === "receipt" ? await inclusionProblem(artefact, head, proof) : await consistencyProblem(artefact, head, proof);
  if (problem !== null) return { ...v, valid: false, errors: [...v.errors, `log: ${problem}`] };
  const log = { tree_size: head.tree_size as number, root_hash: head.root_hash as string, ...(v.type === "receipt" && { leaf_index: proof.leaf_index as number }) };
  return { ...v, log };
}

/** --save: the receipts as plain JSON, written only when every artefact is a valid receipt (else nothing is written). */
function save(path: string, verdicts: Verdict[], code: number): number {
  const receipts = verdicts.map((v) => (v.type === "receipt" && v.valid ? v.receipt : undefined));
  if (receipts.some((r) => r === undefined)) {
    process.stderr.write(`motebit-local verify: ${path} not written: ${code === 0 ? "the input is not only receipts" : "not every artefact is valid"}\n`);
    return Math.max(code, 1);
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(receipts.length === 1 ? receipts[0] : receipts, null, 2) + "\n");
  renameSync(tmp, path);
  process.stderr.write(`motebit-local verify: saved ${receipts.length === 1 ? "the receipt" : `${receipts.length} receipts`} to ${path}\n`);
  return code;
}

export const command: Command = { summary: "verify an identity file, receipt, delegation token or bearer token", help: HELP, run };
