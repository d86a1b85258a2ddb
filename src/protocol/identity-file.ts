import type { Verdict } from "./verdict.js";
import { bytesToHex, hexToBytes, utf8 } from "./bytes.js";
import { publicKeyToDidKey } from "./did-key.js";
import type { Signer } from "./ed25519.js";
import { verifySignature } from "./ed25519.js";
import { ProtocolError } from "./errors.js";
import { isSovereignIdFor, looksSovereign, sovereignMotebitId } from "./motebit-id.js";
import { SUITE_IDENTITY } from "./suites.js";
import { emitYamlSubset, parseYamlSubset } from "./yaml-subset.js";
import { echo } from "../bounded/echo.js";

export interface IdentityDoc {
  spec: "motebit/identity@1.0";
  motebit_id: string;
  created_at: string;
  owner_id: string;
  type?: "personal" | "service" | "collaborative";
  service_name?: string;
  service_description?: string;
  service_url?: string;
  capabilities?: string[];
  terms_url?: string;
  identity: { algorithm: "Ed25519"; public_key: string };
  governance: { trust_mode: string; max_risk_auto: string; require_approval_above: string; deny_above: string; operator_mode: boolean };
  privacy: {
    default_sensitivity: string;
    retention_days: { none: number; personal: number; medical: number; financial: number; secret: number };
    fail_closed: boolean;
  };
  memory: { half_life_days: number; confidence_threshold: number; per_turn_limit: number };
  devices: { device_id: string; name: string; public_key: string; registered_at: string }[];
  guardian?: unknown;
  succession?: unknown;
}

export interface IdentityVerdict extends Verdict {
  doc?: IdentityDoc;
  publicKeyHex?: string;
}

export const IDENTITY_SPEC = "motebit/identity@1.0";
const MAX_IDENTITY_FILE_CHARS = 1024 * 1024;

/**
 * Governance presets for new identities. A personal motebit is guarded (drafts run, anything more asks the
 * owner, money is refused); a service motebit runs up to R3_EXECUTE unattended and refuses anything above,
 * because a service has no owner at hand to approve. Both keep trust_mode "guarded", the one mode every
 * reader knows; the risk bands carry the actual policy.
 */
export const GOVERNANCE_PRESETS: { personal: IdentityDoc["governance"]; service: IdentityDoc["governance"] } = {
  personal: { trust_mode: "guarded", max_risk_auto: "R1_DRAFT", require_approval_above: "R1_DRAFT", deny_above: "R4_MONEY", operator_mode: false },
  service: { trust_mode: "guarded", max_risk_auto: "R3_EXECUTE", require_approval_above: "R3_EXECUTE", deny_above: "R3_EXECUTE", operator_mode: false },
};

export async function createIdentityDoc(opts: {
  publicKeyHex: string;
  type?: "personal" | "service";
  name?: string;
  now?: Date;
}): Promise<IdentityDoc> {
  const type = opts.type ?? "personal";
  if (type !== "personal" && type !== "service") throw new ProtocolError(`unknown identity type "${echo(type)}" (expected personal or service)`);
  const publicKeyHex = bytesToHex(hexToBytes(opts.publicKeyHex, 32));
  const id = await sovereignMotebitId(publicKeyHex);
  return {
    spec: IDENTITY_SPEC,
    motebit_id: id,
    created_at: (opts.now ?? new Date()).toISOString(),
    owner_id: id,
    type,
    ...(type === "service" && opts.name ? { service_name: opts.name } : {}),
    identity: { algorithm: "Ed25519", public_key: publicKeyHex },
    governance: { ...GOVERNANCE_PRESETS[type] },
    privacy: {
      default_sensitivity: "personal",
      retention_days: { none: 365, personal: 90, medical: 30, financial: 30, secret: 7 },
      fail_closed: true,
    },
    memory: { half_life_days: 7, confidence_threshold: 0.3, per_turn_limit: 5 },
    devices: [],
  };
}

// Field emission order (docs/protocol.md §3); unknown keys follow in their own order, so nothing a reader added is lost.
const TOP_ORDER = ["spec", "motebit_id", "created_at", "owner_id", "type", "service_name", "service_description", "service_url",
  "capabilities", "terms_url", "identity", "governance", "privacy", "memory", "devices", "guardian", "succession"];
const NESTED_ORDER: Record<string, string[]> = {
  identity: ["algorithm", "public_key"],
  governance: ["trust_mode", "max_risk_auto", "require_approval_above", "deny_above", "operator_mode"],
  privacy: ["default_sensitivity", "retention_days", "fail_closed"],
  memory: ["half_life_days", "confidence_threshold", "per_turn_limit"],
};
const RETENTION_ORDER = ["none", "personal", "medical", "financial", "secret"];
const DEVICE_ORDER = ["device_id", "name", "public_key", "registered_at"];

function ordered(v: unknown, order: string[]): unknown {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in src) out[k] = src[k];
  for (const k of Object.keys(src)) if (!order.includes(k)) out[k] = src[k];
  return out;
}

/** The YAML text of a document (no surrounding --- lines, no trailing newline), in docs/protocol.md §3 order and style. */
export function emitIdentityYaml(doc: IdentityDoc): string {
  const top = ordered(doc, TOP_ORDER) as Record<string, unknown>;
  for (const [field, order] of Object.entries(NESTED_ORDER)) if (field in top) top[field] = ordered(top[field], order);
  const privacy = top.privacy as Record<string, unknown> | undefined;
  if (privacy && typeof privacy === "object" && "retention_days" in privacy) {
    top.privacy = { ...privacy, retention_days: ordered(privacy.retention_days, RETENTION_ORDER) };
  }
  if (Array.isArray(top.devices)) top.devices = top.devices.map((d) => ordered(d, DEVICE_ORDER));
  return emitYamlSubset(top);
}

function signatureComment(sigHex: string): string {
  return `<!-- motebit:sig:${SUITE_IDENTITY}:${sigHex} -->`;
}

/** The full signed file: frontmatter, signature comment over the raw YAML bytes, then optional unsigned Markdown. */
export async function signIdentityFile(doc: IdentityDoc, signer: Signer, markdown?: string): Promise<string> {
  if (doc?.identity?.public_key?.toLowerCase() !== signer.publicKeyHex) {
    throw new ProtocolError("identity.public_key does not match the signing key");
  }
  const yaml = emitIdentityYaml(doc);
  const sig = await signer.sign(utf8(yaml));
  return `---\n${yaml}\n---\n${signatureComment(bytesToHex(sig))}\n${markdown ?? ""}`;
}

const SIG_RE = /^<!--\s*motebit:sig:([^:\s]+):([^\s]*)\s*-->[ \t]*(?:\n|$)/;

/** Split and parse a signed identity file (CRLF normalised to LF first). Throws ProtocolError naming the problem. */
export function parseIdentityFile(text: string): { doc: IdentityDoc; yaml: string; signatureHex: string; markdown: string } {
  if (typeof text !== "string") throw new ProtocolError("identity file must be text");
  if (text.length > MAX_IDENTITY_FILE_CHARS) throw new ProtocolError("identity file is larger than 1 MiB");
  text = text.replace(/\r\n/g, "\n");
  if (!text.startsWith("---\n")) throw new ProtocolError('identity file must start with a "---" line (YAML frontmatter)');
  const close = text.indexOf("\n---\n", 3);
  if (close < 0 && text.endsWith("\n---")) {
    throw new ProtocolError(`identity file has no signature comment "<!-- motebit:sig:${SUITE_IDENTITY}:<hex> -->" after the frontmatter`);
  }
  if (close < 0) throw new ProtocolError('identity file has no closing "---" line after the YAML frontmatter');
  const yaml = text.slice(4, Math.max(4, close));
  const rest = text.slice(close + 5).replace(/^\s*/, "");
  if (/^<!--\s*motebit:sig:Ed25519:/.test(rest)) {
    throw new ProtocolError(`identity file uses the legacy signature format "motebit:sig:Ed25519"; re-sign it with ${SUITE_IDENTITY}`);
  }
  const m = SIG_RE.exec(rest);
  if (!m) {
    throw new ProtocolError(`identity file has no signature comment "<!-- motebit:sig:${SUITE_IDENTITY}:<hex> -->" after the frontmatter`);
  }
  if (m[1] !== SUITE_IDENTITY) throw new ProtocolError(`identity file signature uses unsupported suite "${echo(m[1])}"`);
  const signatureHex = m[2];
  if (!/^[0-9a-f]{128}$/.test(signatureHex)) throw new ProtocolError("identity file signature must be 64 bytes as 128 lowercase hex chars");
  let parsed: Record<string, unknown>;
  try {
    parsed = parseYamlSubset(yaml, 2);
  } catch (e) {
    throw new ProtocolError(`identity file YAML ${(e as Error).message}`);
  }
  checkShape(parsed);
  return { doc: parsed as unknown as IdentityDoc, yaml, signatureHex, markdown: rest.slice(m[0].length) };
}

function checkShape(d: Record<string, unknown>): void {
  if (d.spec !== IDENTITY_SPEC) throw new ProtocolError(`identity file spec is ${JSON.stringify(d.spec ?? null)}, expected "${IDENTITY_SPEC}"`);
  if (typeof d.motebit_id !== "string" || d.motebit_id === "") throw new ProtocolError("identity file motebit_id must be a non-empty string");
  const identity = d.identity as Record<string, unknown> | null | undefined;
  if (identity === null || typeof identity !== "object" || Array.isArray(identity)) throw new ProtocolError("identity file has no identity section");
  if (identity.algorithm !== "Ed25519") throw new ProtocolError(`identity.algorithm is ${JSON.stringify(identity.algorithm ?? null)}, expected "Ed25519"`);
  if (typeof identity.public_key !== "string" || !/^[0-9a-fA-F]{64}$/.test(identity.public_key)) {
    throw new ProtocolError("identity.public_key must be a 32-byte Ed25519 key (64 hex chars)");
  }
}

/** Verify a signed identity file. Never throws: every problem is an entry in `errors`. */
export async function verifyIdentityFile(text: string): Promise<IdentityVerdict> {
  let parsed: ReturnType<typeof parseIdentityFile>;
  try {
    parsed = parseIdentityFile(text);
  } catch (e) {
    return { valid: false, errors: [e instanceof ProtocolError ? e.message : `identity file could not be read: ${String(e)}`] };
  }
  const { doc, yaml, signatureHex } = parsed;
  const publicKeyHex = doc.identity.public_key.toLowerCase();
  const errors: string[] = [];
  if (!(await verifySignature(publicKeyHex, utf8(yaml), hexToBytes(signatureHex)))) {
    errors.push("identity file signature does not verify against identity.public_key");
  }
  const sovereign = await isSovereignIdFor(doc.motebit_id, publicKeyHex);
  if (!sovereign && looksSovereign(doc.motebit_id)) {
    errors.push(`motebit_id "${echo(doc.motebit_id)}" has the sovereign form but is not the id of the signing key (expected "${await sovereignMotebitId(publicKeyHex)}")`);
  }
  return {
    valid: errors.length === 0,
    doc,
    publicKeyHex,
    signer: publicKeyToDidKey(publicKeyHex),
    motebit_id: doc.motebit_id,
    sovereign,
    errors,
  };
}
