// POST /register: dynamic client registration (RFC 7591). Public clients only; the registration is an anonymous row,
// capped per source by the store.
import { jsonResponse } from "../../server/responses.js";
import { checkClientMetadata } from "../client-metadata.js";
import type { StoredClient } from "../store.js";
import type { OAuthHandler } from "./context.js";
import { randomToken } from "./random-codes.js";
import { readJson } from "./request-body.js";

export const register: OAuthHandler = async (ctx, { request, source }) => {
  const checked = checkClientMetadata(await readJson(request));
  if (!checked.ok) return jsonResponse(400, { error: checked.error, error_description: checked.why });
  const now = ctx.clock.now();
  const client: StoredClient = { clientId: `mcp_${randomToken(16)}`, kind: "registered", name: checked.value.name, redirectUris: checked.value.redirectUris, createdAt: now };
  ctx.store.register(client, source, now);
  return jsonResponse(201, {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  }, { "Cache-Control": "no-store" });
};
