// The RPC contract between the Worker and the Durable Object: what the Worker sends and what the object answers,
// as plain data (the principal included). Both sides import it from here; the object never imports the Worker.
import type { FleetCallers } from "../src/index.js";

export type IdentityAnswer = { ok: true; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

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
