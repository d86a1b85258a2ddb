// Who is asking. Decided once per request by the transport and auth layer, then passed explicitly
// to every tool, resource and policy check — never kept in shared state.

export type CallerTrust = "first_contact" | "verified" | "trusted" | "blocked";

export type CallerVia = "static_token" | "signed_token" | "self_signed" | "relay" | "oauth";

export type Principal =
  | { kind: "owner" }
  | {
      kind: "peer";
      /** Stable id for rate limits, sessions and provenance: the caller's motebit_id, "relay:<id>", "static:<name>" or "oauth:<client_id>". */
      callerId: string;
      via: CallerVia;
      trust: CallerTrust;
      /**
       * Which of the caller's replaceable credentials proved it (a static token's hash prefix), when it has one:
       * work and sessions belong to the caller under that credential, so a replaced one takes them with it.
       */
      credential?: string;
      /** The OAuth grant the access token came from (via "oauth" only): its standing is the grant's (src/oauth/standing.ts). */
      grant?: string;
      /** The OAuth scopes its access token carries (via "oauth" only; src/policy/admission/oauth-scopes.ts). */
      scope?: string;
    };

export const OWNER: Principal = Object.freeze({ kind: "owner" });

export function isOwner(p: Principal): p is { kind: "owner" } {
  return p.kind === "owner";
}

/** A caller's standing now, re-read from the host's settings before accepted work runs (src/host/caller-standing.ts). */
export type Standing = { ok: true; principal: Principal } | { ok: false; reason: string };

export type CallerStanding = (p: Principal) => Standing;

/** Every principal keeps what it had: for a motebit with no host settings (tests, one-off calls). */
export const UNCHANGED_STANDING: CallerStanding = (p) => ({ ok: true, principal: p });

/** A short label for audit logs and provenance. */
export function principalLabel(p: Principal): string {
  return p.kind === "owner" ? "owner" : `peer:${p.callerId}`;
}

/** A peer's sessions belong to this: its callerId, under the credential that proved it when it has a replaceable one. */
export function peerHolder(p: Extract<Principal, { kind: "peer" }>): string {
  return p.credential === undefined ? p.callerId : `${p.callerId}#${p.credential}`;
}

/** Whose tasks and waiting work these are: principalLabel, with a peer's credential as peerHolder has it. */
export function holderKey(p: Principal): string {
  return p.kind === "owner" ? "owner" : `peer:${peerHolder(p)}`;
}
