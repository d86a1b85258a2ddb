// The fleet's share of the Worker's URL space: /m/<name>/… (each fleet motebit, the same app as the default
// motebit's) and /fleet/… (the operator's API). Without MOTEBIT_FLEET_TOKEN none of it exists: 404.
import { createApp } from "./app.js";
import type { EdgeEnv } from "./env.js";
import { fleetApi } from "./fleet-api.js";
import { fleetBackend } from "./fleet-backend.js";
import { fleetToken } from "./fleet-objects.js";
import { jsonResponse } from "../src/server/responses.js";

export function isFleetPath(pathname: string): boolean {
  return pathname === "/m" || pathname.startsWith("/m/") || pathname === "/fleet" || pathname.startsWith("/fleet/");
}

export function fleetRoutes() {
  const members = createApp<EdgeEnv>((env, c) => fleetBackend(env, c.req.param("name") ?? ""), { basePath: "/m/:name" });
  const operator = fleetApi();
  return (request: Request, env: EdgeEnv, ctx: ExecutionContext): Response | Promise<Response> => {
    if (fleetToken(env) === null) return jsonResponse(404, { error: "not found" });
    const { pathname } = new URL(request.url);
    return pathname.startsWith("/fleet") ? operator.fetch(request, env, ctx) : members.fetch(request, env, ctx);
  };
}
