// The owner's command to a motebit's OAuth clients (motebit-local oauth list | revoke | allow), signed by the motebit's key
// and good for one use within a short window: the key file stays on the owner's machine, only this crosses.
import type { Signer, VerifySignature } from "../protocol/index.js";
import { openEnvelope, signEnvelope } from "./signed-envelope.js";

export const OWNER_COMMAND_CONTEXT = "motebit-oauth-owner-v1";
export const OWNER_COMMAND_TTL_MS = 60_000;

/**
 * allow: a keyed client (private_key_jwt) may get tokens with client_credentials, with this trust and these scopes
 * (space-separated; absent, as in a command from before scopes: all four), until revoked.
 */
export type OwnerCommand = { op: "list" } | { op: "revoke"; client_id: string } | { op: "allow"; client_id: string; trust: string; scope?: string };

export function signOwnerCommand(motebitId: string, command: OwnerCommand, now: number, signer: Signer): Promise<string> {
  return signEnvelope(OWNER_COMMAND_CONTEXT, { ...command, sub: motebitId, jti: crypto.randomUUID(), exp: now + OWNER_COMMAND_TTL_MS }, signer);
}

export type OpenedCommand = { ok: true; command: OwnerCommand; jti: string; exp: number } | { ok: false; why: string };

export async function openOwnerCommand(
  text: string,
  identity: { motebitId: string; publicKeyHex: string },
  now: number,
  verify?: VerifySignature,
): Promise<OpenedCommand> {
  const p = await openEnvelope(OWNER_COMMAND_CONTEXT, text, identity.publicKeyHex, verify);
  if (p === null) return { ok: false, why: "not a command signed by this motebit's key" };
  if (p.sub !== identity.motebitId) return { ok: false, why: "the command is for another motebit" };
  if (typeof p.exp !== "number" || !(now < p.exp) || p.exp > now + OWNER_COMMAND_TTL_MS + 60_000) return { ok: false, why: "the command has expired" };
  if (typeof p.jti !== "string" || p.jti.length > 64) return { ok: false, why: "the command has no jti" };
  if (p.op === "list") return { ok: true, command: { op: "list" }, jti: p.jti, exp: p.exp };
  if (p.op === "revoke" && typeof p.client_id === "string") return { ok: true, command: { op: "revoke", client_id: p.client_id }, jti: p.jti, exp: p.exp };
  if (p.op === "allow" && typeof p.client_id === "string" && typeof p.trust === "string" && (p.scope === undefined || typeof p.scope === "string")) {
    const scope = p.scope === undefined ? {} : { scope: p.scope };
    return { ok: true, command: { op: "allow", client_id: p.client_id, trust: p.trust, ...scope }, jti: p.jti, exp: p.exp };
  }
  return { ok: false, why: "unknown command" };
}
