// The fleet's share of the Worker's URL space: /m/<name>/… (each fleet motebit, the same app as the default
// motebit's) and /fleet/… (the operator's API). Without MOTEBIT_FLEET_TOKEN none of it exists: 404.
import { createApp, isFleetName, jsonResponse } from "../src/index.js";
import type { EdgeEnv } from "./env.js";
import { fleetApi } from "./fleet-api.js";
import { fleetBackend } from "./fleet-backend.js";
import { fleetToken } from "./fleet-objects.js";
import { isProvisioned } from "./fleet-callers.js";

const NOT_FOUND = () => jsonResponse(404, { error: "not found" });

export function isFleetPath(pathname: string): boolean {
  return pathname === "/m" || pathname.startsWith("/m/") || pathname === "/fleet" || pathname.startsWith("/fleet/");
}

export function fleetRoutes() {
  const members = createApp<EdgeEnv>((env, c) => fleetBackend(env, c.req.param("name") ?? ""), { basePath: "/m/:name" });
  const operator = fleetApi();
  return async (request: Request, env: EdgeEnv, ctx: ExecutionContext): Promise<Response> => {
    if (fleetToken(env) === null) return NOT_FOUND();
    const { pathname } = new URL(request.url);
    if (pathname.startsWith("/fleet")) return operator.fetch(request, env, ctx);
    // A CORS preflight is answered before any backend is asked who it is: ask the directory here, so an unknown
    // name is 404 for it too.
    if (request.method === "OPTIONS") {
      const name = /^\/m\/([^/]+)\//.exec(pathname)?.[1];
      if (name === undefined || !isFleetName(name) || !(await isProvisioned(env, name))) return NOT_FOUND();
    }
    return members.fetch(request, env, ctx);
  };
}
