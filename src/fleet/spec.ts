// The operator's request bodies (POST and PATCH /fleet/motebits), checked into plain data that may cross to the
// motebit's object. A static token arrives in clear and leaves here as its SHA-256: the object never stores it.
import { GOVERNANCE_PRESETS, sha256Hex, type IdentityDoc } from "../protocol/index.js";
import { governanceFromIdentity } from "../policy/governance.js";
import { parseRisk, riskName } from "../policy/risk.js";
import { parseKnownCallers } from "../settings/known-callers.js";
import { StartupError } from "../settings/startup-error.js";
import { isFleetName } from "./name.js";

/** What an operator may change after creation; `undefined` leaves a field as it is. */
export interface FleetSettingsPatch {
  /** The MOTEBIT_KNOWN_CALLERS shape, already validated. */
  knownCallers?: Record<string, unknown>;
  /** SHA-256 hex of the static token; null = none. */
  authTokenSha256?: string | null;
  /** The served tools this motebit offers, by name; null = all of them. */
  tools?: string[] | null;
}

export interface FleetSpec extends Required<FleetSettingsPatch> {
  name: string;
  type: "personal" | "service";
  displayName: string | null;
  governance: IdentityDoc["governance"];
}

/** A body the operator must fix: HTTP 400 with this message. */
export class FleetSpecError extends Error {}

const CREATE_FIELDS = new Set(["name", "type", "display_name", "governance", "known_callers", "auth_token", "tools"]);
const PATCH_FIELDS = new Set(["known_callers", "auth_token", "tools"]);
const GOVERNANCE_FIELDS = ["max_risk_auto", "require_approval_above", "deny_above"] as const;
export const MIN_STATIC_TOKEN_CHARS = 16;

function object(body: unknown, allowed: Set<string>): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new FleetSpecError("the body must be a JSON object");
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw new FleetSpecError(`unknown field(s): ${unknown.join(", ")} (allowed: ${[...allowed].join(", ")})`);
  return body as Record<string, unknown>;
}

export async function parseCreateBody(body: unknown): Promise<FleetSpec> {
  const b = object(body, CREATE_FIELDS);
  if (!isFleetName(b.name)) throw new FleetSpecError("name must be 1-63 characters of a-z, 0-9 and -");
  const type = b.type ?? "service";
  if (type !== "service" && type !== "personal") throw new FleetSpecError('type must be "service" or "personal"');
  const displayName = b.display_name ?? null;
  if (displayName !== null && (typeof displayName !== "string" || displayName.trim() === "" || displayName.length > 200)) {
    throw new FleetSpecError("display_name must be a non-empty string of at most 200 characters");
  }
  return {
    name: b.name,
    type,
    displayName,
    governance: governance(b.governance, GOVERNANCE_PRESETS[type]),
    ...(await settings(b, { knownCallers: {}, authTokenSha256: null, tools: null })),
  } as FleetSpec;
}

export async function parsePatchBody(body: unknown): Promise<FleetSettingsPatch> {
  const b = object(body, PATCH_FIELDS);
  if (Object.keys(b).length === 0) throw new FleetSpecError(`nothing to change: give one of ${[...PATCH_FIELDS].join(", ")}`);
  return settings(b, {});
}

async function settings(b: Record<string, unknown>, defaults: FleetSettingsPatch): Promise<FleetSettingsPatch> {
  const out: FleetSettingsPatch = { ...defaults };
  if (b.known_callers !== undefined) {
    try {
      parseKnownCallers(b.known_callers, "known_callers");
    } catch (e) {
      if (e instanceof StartupError) throw new FleetSpecError(e.message);
      throw e;
    }
    if (typeof b.known_callers !== "object" || b.known_callers === null) throw new FleetSpecError("known_callers must be a JSON object");
    out.knownCallers = b.known_callers as Record<string, unknown>;
  }
  if (b.auth_token !== undefined) {
    if (b.auth_token === null) out.authTokenSha256 = null;
    else if (typeof b.auth_token !== "string" || b.auth_token.trim().length < MIN_STATIC_TOKEN_CHARS) {
      throw new FleetSpecError(`auth_token must be a string of at least ${MIN_STATIC_TOKEN_CHARS} characters, or null for none`);
    } else out.authTokenSha256 = await sha256Hex(b.auth_token.trim());
  }
  if (b.tools !== undefined) {
    if (b.tools !== null && (!Array.isArray(b.tools) || b.tools.length === 0 || !b.tools.every((t) => typeof t === "string" && t !== ""))) {
      throw new FleetSpecError("tools must be a non-empty array of tool names, or null for every served tool");
    }
    out.tools = b.tools === null ? null : [...new Set(b.tools as string[])];
  }
  return out;
}

/** The type's preset with the given bands over it, each band written as its risk name. */
function governance(given: unknown, preset: IdentityDoc["governance"]): IdentityDoc["governance"] {
  if (given === undefined || given === null) return { ...preset };
  if (typeof given !== "object" || Array.isArray(given)) throw new FleetSpecError(`governance must be an object with any of ${GOVERNANCE_FIELDS.join(", ")}`);
  const g = given as Record<string, unknown>;
  const extra = Object.keys(g).filter((k) => !(GOVERNANCE_FIELDS as readonly string[]).includes(k));
  if (extra.length > 0) throw new FleetSpecError(`governance: unknown field(s) ${extra.join(", ")} (allowed: ${GOVERNANCE_FIELDS.join(", ")})`);
  const out = { ...preset };
  for (const k of GOVERNANCE_FIELDS) {
    if (g[k] === undefined) continue;
    const level = parseRisk(g[k]);
    if (level === null) throw new FleetSpecError(`governance.${k} must be one of R0_READ … R4_MONEY or 0-4`);
    out[k] = riskName(level);
  }
  try {
    governanceFromIdentity(out);
  } catch (e) {
    throw new FleetSpecError((e as Error).message);
  }
  return out;
}
