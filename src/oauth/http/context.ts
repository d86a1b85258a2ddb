// What every authorization-server endpoint works with: the motebit's OAuth state and key, and the one request.
import type { Clock } from "../../ports.js";
import type { Signer, VerifySignature } from "../../protocol/index.js";
import type { ReplayStore } from "../../callers/replay-store.js";
import type { OAuthStore } from "../store.js";
import type { OAuthUrls } from "../urls.js";
import type { ClientResolver } from "./client-resolver.js";
import type { DpopGate } from "./dpop-gate.js";

export interface OAuthContext {
  readonly store: OAuthStore;
  /** The owner's commands are single use (their jti). */
  readonly replay: ReplayStore;
  readonly clients: ClientResolver;
  readonly clock: Clock;
  readonly signer: Signer;
  readonly motebitId: string;
  readonly verify?: VerifySignature;
  readonly dpop: DpopGate;
}

/** One request to an endpoint, with where it came in: the motebit's URLs, its fleet name, the caller's source. */
export interface OAuthCall {
  request: Request;
  urls: OAuthUrls;
  fleetName: string | null;
  /** The caller's address as the host saw it, never a value the caller sent. */
  source: string;
  /** The endpoint's path parameter (a request code), "" for an endpoint without one. */
  param: string;
}

export type OAuthHandler = (ctx: OAuthContext, call: OAuthCall) => Promise<Response>;

export function identityOf(ctx: OAuthContext): { motebitId: string; publicKeyHex: string } {
  return { motebitId: ctx.motebitId, publicKeyHex: ctx.signer.publicKeyHex };
}
