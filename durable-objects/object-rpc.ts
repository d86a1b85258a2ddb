// The RPC contract between the Worker and the Durable Object: what the Worker sends and what the object answers,
// as plain data (the principal included). Both sides import it from here; the object never imports the Worker.
// The deployment's motebit's part of the contract is the core's MotebitRpc (src/server/object-backend.ts), which the
// Worker's backend calls.
import type { FleetCallers } from "../src/index.js";

/** A fleet motebit's answer to the Worker: the value, or an HTTP status and message (404: no such motebit). */
export type FleetAnswer<T> = { ok: true; value: T } | { ok: false; status: 404 | 500; error: string };

/** What the Worker needs to authenticate a caller of a fleet motebit; it may keep it, tagged (worker/fleet-callers.ts). */
export interface FleetCaller {
  motebitId: string;
  publicKeyHex: string;
  auth: FleetCallers;
  settingsTag: string;
}

/** What the Worker authenticated against, so the object can tell whether it was still current. */
export interface FleetCheck {
  settingsTag: string;
  authorization: string | null;
}

/** What the operator gets back about one fleet motebit. */
export interface FleetDescription {
  name: string;
  motebit_id: string;
  public_key: string;
  identity: string;
  tools: string[] | null;
  known_callers: string[];
  static_token: boolean;
  /** The names of its static tokens (callers `static:<name>`); never the tokens. */
  static_tokens: string[];
  created_at: number;
}

/**
 * Which object a name is (`idFromName`, seen inside the object as `ctx.id.name`). Every fleet key contains ":",
 * which neither a fleet name (a-z, 0-9, -) nor the deployment's key ("motebit") does: no fleet name can address
 * the default motebit's object, the directory, or another fleet motebit's object.
 */
export const FLEET_MOTEBIT_PREFIX = "fleet:";
export const FLEET_DIRECTORY_KEY = "fleet-directory:";

/** The deployment's motebit, a fleet motebit, or the fleet's directory: each answers only its own role's methods. */
export type ObjectRole = "motebit" | "fleet-motebit" | "fleet-directory";

/** Any other name (the deployment's "motebit", a test's own) is a deployment motebit: never the directory or a fleet motebit. */
export function roleOfObject(name: string | undefined): ObjectRole {
  if (name === FLEET_DIRECTORY_KEY) return "fleet-directory";
  return name?.startsWith(FLEET_MOTEBIT_PREFIX) ? "fleet-motebit" : "motebit";
}
