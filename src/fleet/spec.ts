// The operator's request bodies (POST and PATCH /fleet/motebits), checked into plain data that may cross to the
// motebit's object. A static token arrives in clear and leaves here as its SHA-256: the object never stores it.
// The deployment's relay forward bearer is checked here too, so a token equal to it is refused before anything is
// written (the same rule as at a host's start-up: src/settings/server-config.ts).
import { GOVERNANCE_PRESETS, type IdentityDoc } from "../protocol/index.js";
import { governanceFromIdentity } from "../policy/governance.js";
import { parseRisk, riskName } from "../policy/risk.js";
import { parseKnownCallers } from "../settings/known-callers.js";
import { refuseRelayForwardToken, type ServerConfig } from "../settings/server-config.js";
import { StartupError } from "../settings/startup-error.js";
import { DEFAULT_STATIC_TOKEN_NAME, hashStaticToken, parseStaticTokens, type StaticToken } from "../settings/static-tokens.js";
import { isFleetName } from "./name.js";

/** What an operator may change after creation; `undefined` leaves a field as it is. */
export interface FleetSettingsPatch {
  /** The MOTEBIT_KNOWN_CALLERS shape, already validated. */
  knownCallers?: Record<string, unknown>;
  /** Named static tokens by name, each as its SHA-256 and trust; a null entry removes that name (PATCH). */
  staticTokens?: Record<string, StaticToken | null>;
  /** The served tools this motebit offers, by name; null = all of them. */
  tools?: string[] | null;
}

export interface FleetSpec extends Required<Omit<FleetSettingsPatch, "staticTokens">> {
  staticTokens: Record<string, StaticToken>;
  name: string;
  type: "personal" | "service";
  displayName: string | null;
  governance: IdentityDoc["governance"];
}

/** A body the operator must fix: HTTP 400 with this message. */
export class FleetSpecError extends Error {}

const CREATE_FIELDS = new Set(["name", "type", "display_name", "governance", "known_callers", "auth_token", "auth_tokens", "tools"]);
const PATCH_FIELDS = new Set(["known_callers", "auth_token", "auth_tokens", "tools"]);
const GOVERNANCE_FIELDS = ["max_risk_auto", "require_approval_above", "deny_above"] as const;

function object(body: unknown, allowed: Set<string>): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new FleetSpecError("the body must be a JSON object");
  const unknown = Object.keys(body).filter((k) => !allowed.has(k));
  if (unknown.length > 0) throw new FleetSpecError(`unknown field(s): ${unknown.join(", ")} (allowed: ${[...allowed].join(", ")})`);
  return body as Record<string, unknown>;
}

/** What the checks need from the deployment's settings. */
export type FleetDeployment = Pick<ServerConfig, "relayForwardToken">;

export function parseCreateBody(body: unknown, deployment: FleetDeployment): FleetSpec {
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
    ...settings(b, { knownCallers: {}, staticTokens: {}, tools: null }, deployment),
  } as FleetSpec;
}

export function parsePatchBody(body: unknown, deployment: FleetDeployment): FleetSettingsPatch {
  const b = object(body, PATCH_FIELDS);
  if (Object.keys(b).length === 0) throw new FleetSpecError(`nothing to change: give one of ${[...PATCH_FIELDS].join(", ")}`);
  return settings(b, {}, deployment);
}

/** A settings rule's StartupError as the operator's 400. */
function asSpecError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof StartupError ? new FleetSpecError(e.message) : e;
  }
}

function settings(b: Record<string, unknown>, defaults: FleetSettingsPatch, deployment: FleetDeployment): FleetSettingsPatch {
  const out: FleetSettingsPatch = { ...defaults };
  if (b.known_callers !== undefined) {
    asSpecError(() => parseKnownCallers(b.known_callers, "known_callers"));
    if (typeof b.known_callers !== "object" || b.known_callers === null) throw new FleetSpecError("known_callers must be a JSON object");
    out.knownCallers = b.known_callers as Record<string, unknown>;
  }
  if (b.auth_token !== undefined || b.auth_tokens !== undefined) {
    const changes = staticTokenChanges(b.auth_token, b.auth_tokens);
    // The tokens this body sets; those it keeps met the rule when they were set.
    const set = new Map(Object.entries(changes).filter((e): e is [string, StaticToken] => e[1] !== null));
    asSpecError(() => refuseRelayForwardToken(deployment.relayForwardToken, set));
    out.staticTokens = changes;
  }
  if (b.tools !== undefined) {
    if (b.tools !== null && (!Array.isArray(b.tools) || b.tools.length === 0 || !b.tools.every((t) => typeof t === "string" && t !== ""))) {
      throw new FleetSpecError("tools must be a non-empty array of tool names, or null for every served tool");
    }
    out.tools = b.tools === null ? null : [...new Set(b.tools as string[])];
  }
  return out;
}

/**
 * `auth_token` is the token named "static"; `auth_tokens` names tokens `{"<name>": "<token>" | {"token", "trust"} |
 * null}`. Each name given is set (null: removed); names not given keep their token, so one can be rotated alone.
 */
function staticTokenChanges(single: unknown, named: unknown): Record<string, StaticToken | null> {
  if (named !== undefined && (typeof named !== "object" || named === null || Array.isArray(named))) {
    throw new FleetSpecError('auth_tokens must be a JSON object {"<name>": {"token": "…", "trust": "verified"} or null to remove it}');
  }
  const given: Record<string, unknown> = { ...(named as Record<string, unknown> | undefined) };
  if (single !== undefined && Object.hasOwn(given, DEFAULT_STATIC_TOKEN_NAME)) {
    throw new FleetSpecError(`auth_token is the token named "${DEFAULT_STATIC_TOKEN_NAME}": give it once`);
  }
  const removed = Object.keys(given).filter((k) => given[k] === null);
  if (single === null) removed.push(DEFAULT_STATIC_TOKEN_NAME);
  return asSpecError(() => {
    const set = parseStaticTokens(Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null)), "auth_tokens");
    if (single !== undefined && single !== null) set.set(DEFAULT_STATIC_TOKEN_NAME, { sha256: hashStaticToken(single, "auth_token"), trust: "verified" });
    return { ...Object.fromEntries(set), ...Object.fromEntries(removed.map((k) => [k, null])) };
  });
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
