// The fleet's share of the Worker's URL space, mounted on the Worker's app: /m/<name>/… (each fleet motebit, the
// same app as the default motebit's) and /fleet/… (the operator's API). Without MOTEBIT_FLEET_TOKEN none of it
// exists: 404. Mounted before the default motebit's routes, and closed at the end, so nothing under these
// prefixes ever reaches the default motebit's app (or its object).
import type { Hono, MiddlewareHandler } from "hono";
import { createApp, type FailedAuthLimiter, isFleetName, jsonResponse, type ToolRegistry } from "../src/index.js";
import type { EdgeEnv } from "./env.js";
import { callerSource } from "./caller-source.js";
import { fleetApi } from "./fleet-api.js";
import { FleetBackend } from "./fleet-backend.js";
import { fleetToken } from "./fleet-objects.js";
import { isProvisioned } from "./fleet-callers.js";

type Root = Hono<{ Bindings: EdgeEnv }>;

const NOT_FOUND = () => jsonResponse(404, { error: "not found" });
const PREFIXES = ["/m/*", "/fleet/*"] as const;

const fleetEnabled: MiddlewareHandler<{ Bindings: EdgeEnv }> = async (c, next) => {
  if (fleetToken(c.env) === null) return NOT_FOUND();
  await next();
};

// A CORS preflight is answered before any backend is asked who it is: ask the directory here, so an unknown name
// is 404 for it too.
const preflightNeedsAName: MiddlewareHandler<{ Bindings: EdgeEnv }> = async (c, next) => {
  const name = c.req.param("name");
  if (name === undefined || !isFleetName(name) || !(await isProvisioned(c.env, name))) return NOT_FOUND();
  await next();
};

/**
 * `served`: the Worker's tools module (the operator's API checks a fleet motebit's tool names against it).
 * `failedAuthLimiter`: the same one the default motebit's app has (auth-failures.ts).
 */
export function mountFleet(root: Root, served: ToolRegistry, failedAuthLimiter: FailedAuthLimiter | undefined): Root {
  for (const prefix of PREFIXES) root.use(prefix, fleetEnabled);
  root.options("/m/:name/*", preflightNeedsAName);
  root.route("/", fleetApi(served));
  // A request picks its motebit by the name in its path: the one call per request into worker/ that the fleet keeps.
  const motebits = createApp<EdgeEnv>({
    backend: (c) => new FleetBackend(c.env, c.req.param("name") ?? ""),
    basePath: "/m/:name",
    sourceOf: callerSource,
    tools: served,
    failedAuthLimiter,
  });
  // A fleet motebit's page answers at /m/<name>/ as at /m/<name> (a base path's "/" route has no trailing slash).
  root.get("/m/:name/", (c) => {
    const url = new URL(c.req.url);
    url.pathname = url.pathname.replace(/\/$/, "");
    return motebits.fetch(new Request(url, c.req.raw), c.env, c.executionCtx);
  });
  root.route("/", motebits);
  for (const prefix of PREFIXES) root.all(prefix, NOT_FOUND);
  return root;
}
