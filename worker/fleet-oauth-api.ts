// The operator's side of a fleet motebit's OAuth clients, under /fleet/motebits/<name>/oauth (behind the operator
// token, checked by fleet-api.ts): approve a pending consent request (the motebit's object signs the approval),
// allow a keyed agent (client_credentials), list the clients, revoke one.
import type { Context, Hono } from "hono";
import { type FleetOAuthOp, FleetSpecError, isFleetName, jsonResponse } from "../src/index.js";
import type { EdgeEnv } from "./env.js";
import { directoryStub, fleetStub } from "./fleet-objects.js";

/** `mcpUrlOf`: the fleet motebit's /mcp as peers call it, the resource an allowed agent's tokens are for. */
export function mountFleetOAuth(
  app: Hono<{ Bindings: EdgeEnv }>,
  jsonBody: (c: { req: { raw: Request } }) => Promise<unknown>,
  mcpUrlOf: (c: Context<{ Bindings: EdgeEnv }>, name: string) => string,
): void {
  const run = async (env: EdgeEnv, name: string, op: FleetOAuthOp) => {
    if (!isFleetName(name) || (await directoryStub(env).directoryGet(name)) === null) return jsonResponse(404, { error: "not found" });
    const a = await fleetStub(env, name).fleetOAuth(op);
    return a.ok ? jsonResponse(200, a.value) : jsonResponse(a.status, { error: a.error });
  };
  app.post("/motebits/:name/oauth/approve", async (c) => {
    const body = (await jsonBody(c)) as { code?: unknown; trust?: unknown } | null;
    if (typeof body?.code !== "string") throw new FleetSpecError('the body must be {"code": "<request code>", "trust": "first_contact|verified"}');
    return run(c.env, c.req.param("name"), { op: "approve", code: body.code, trust: typeof body.trust === "string" ? body.trust : "first_contact" });
  });
  app.post("/motebits/:name/oauth/agents", async (c) => {
    const body = (await jsonBody(c)) as { client_id?: unknown; trust?: unknown; scope?: unknown } | null;
    if (typeof body?.client_id !== "string" || !(body.scope === undefined || typeof body.scope === "string")) {
      throw new FleetSpecError('the body must be {"client_id": "<metadata document URL>", "trust": "first_contact|verified", "scope": "<space-separated scopes, optional>"}');
    }
    const name = c.req.param("name");
    const trust = typeof body.trust === "string" ? body.trust : "first_contact";
    // An unknown scope is refused (400) where the grant is made, as the owner's own `allow` is.
    return run(c.env, name, { op: "allow", clientId: body.client_id, trust, scope: body.scope, resource: mcpUrlOf(c, name) });
  });
  app.get("/motebits/:name/oauth/clients", (c) => run(c.env, c.req.param("name"), { op: "list" }));
  app.delete("/motebits/:name/oauth/clients/:client", (c) => run(c.env, c.req.param("name"), { op: "revoke", clientId: c.req.param("client") }));
}
