// The owner's side, over HTTP: what an approver signs for a pending request (public: it grants nothing without the
// owner's signature), the owner's signed one-use commands (list, revoke, allow), and a fleet motebit's approval made
// by its own object for the operator.
import type { CallerTrust } from "../../principal.js";
import { jsonResponse } from "../../server/responses.js";
import { requestDetails, signApproval, type RequestDetails } from "../approval.js";
import { openOwnerCommand } from "../owner-command.js";
import { ownerListing, type ConsentRequest } from "../store.js";
import { identityOf, type OAuthContext, type OAuthHandler } from "./context.js";
import { approveKeyedClient } from "./keyed-client-approval.js";
import { normalizeCode } from "./random-codes.js";
import { readJson } from "./request-body.js";

/** GET /oauth/requests/<code>. */
export const pendingRequestDetails: OAuthHandler = async (ctx, { param }) => {
  const r = pendingRequest(ctx, safeDecode(param));
  if (r === null) return jsonResponse(404, { error: "no such pending request (it may have expired)" });
  return jsonResponse(200, detailsOf(ctx, r), { "Cache-Control": "no-store" });
};

/** POST /oauth/owner: {"command": "<signed command>"}. */
export const ownerCommand: OAuthHandler = async (ctx, { request, urls, source }) => {
  const command = ((await readJson(request)) as { command?: unknown } | null)?.command;
  if (typeof command !== "string") return jsonResponse(400, { error: 'the body must be {"command": "<signed command>"}' });
  const opened = await openOwnerCommand(command, identityOf(ctx), ctx.clock.now(), ctx.verify);
  if (!opened.ok) return jsonResponse(401, { error: `refused: ${opened.why}` });
  if (!ctx.replay.consume(`oauth-owner:${opened.jti}`, opened.exp)) return jsonResponse(401, { error: "refused: this command was already used" });
  if (opened.command.op === "list") return jsonResponse(200, ownerListing(ctx.store.listClients()));
  if (opened.command.op === "allow") {
    const a = await approveKeyedClient(ctx, opened.command.client_id, opened.command.trust, opened.command.scope, urls.resource, source);
    return a.ok ? jsonResponse(200, a.value) : jsonResponse(a.status, { error: a.error });
  }
  const revoked = ctx.store.revokeClient(opened.command.client_id, ctx.clock.now());
  return revoked ? jsonResponse(200, { revoked: opened.command.client_id }) : jsonResponse(404, { error: "no such client" });
};

/** A fleet motebit's approval, made by its own object for the operator (whose token was checked by the Worker). */
export async function operatorApproval(
  ctx: OAuthContext, code: string, trust: CallerTrust,
): Promise<{ ok: true; approval: string; request: RequestDetails } | { ok: false; why: string }> {
  const r = pendingRequest(ctx, code);
  if (r === null) return { ok: false, why: "no such pending request (it may have expired)" };
  const d = detailsOf(ctx, r);
  return { ok: true, approval: await signApproval(d, trust, ctx.signer), request: d };
}

/** The request with this code (as typed), while it waits for the owner. */
function pendingRequest(ctx: OAuthContext, code: string): ConsentRequest | null {
  const r = ctx.store.request(normalizeCode(code));
  return r === null || !(ctx.clock.now() < r.expiresAt) ? null : r;
}

function detailsOf(ctx: OAuthContext, r: ConsentRequest): RequestDetails {
  return requestDetails(ctx.motebitId, r, ctx.store.client(r.clientId)?.name ?? r.clientId);
}

/** A path segment as text; a malformed escape is simply no code. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
