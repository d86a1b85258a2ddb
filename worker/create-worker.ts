// The edge as a library: a user's Worker entry is
//   const worker = createMotebitWorker({ tools });
//   export default worker;
//   export const { MotebitObject } = worker;
// The runtime finds a Durable Object class only among the main module's named exports, hence the last line.
import { Hono } from "hono";
import { createApp, jsonResponse, readSetting, type ServedPrompt, type ServedResource, type ServedTool, ToolRegistry } from "../src/index.js";
import { motebitObjectFor } from "../durable-objects/motebit-object.js";
import { authFailureLimiter } from "./auth-failures.js";
import { callerSource } from "./caller-source.js";
import { durableObjectBackend, motebitStub } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { mountFleet } from "./fleet-routes.js";
import { withFleetWellKnown } from "./oauth-paths.js";
import { tracedFetch, workerTelemetry } from "./worker-telemetry.js";

/** The scheduled event `npm start`'s wrapper sends before it stops the local edge (scripts/start-edge.mjs). */
export const LEAVE_RELAY_CRON = "motebit:leave-relay";

export interface MotebitWorkerOptions {
  /** The served tools: an array of { definition, handler } (docs/tools-and-resources.md). */
  tools: readonly ServedTool[];
  /** The tools module's own resources and prompts (docs/tools-and-resources.md), listed after the motebit's. */
  resources?: readonly ServedResource[];
  prompts?: readonly ServedPrompt[];
}

/**
 * The Worker's handlers for this deployment's motebit, and its Durable Object class bound to the same tools. The
 * tool module is validated here, when the entry loads: a bad module fails the deploy, not the first call.
 */
export function createMotebitWorker(options: MotebitWorkerOptions) {
  const served = ToolRegistry.fromModule(options.tools, { resources: options.resources, prompts: options.prompts });
  // One app per env object (an isolate has one), built at its first request: the backend, the source rule and the
  // failed-auth limiter are handed in then, so a request enters the core once and is not called back out of it.
  const apps = new WeakMap<EdgeEnv, Hono<{ Bindings: EdgeEnv }>>();
  const appFor = (env: EdgeEnv) => {
    let app = apps.get(env);
    if (app === undefined) apps.set(env, (app = workerApp(served, env)));
    return app;
  };
  const handlers = {
    fetch: (request: Request, env: EdgeEnv, ctx: ExecutionContext) => {
      // OTEL_* vars naming an endpoint: the request runs under the Worker's span (worker-telemetry.ts); else as is.
      const telemetry = workerTelemetry(env);
      if (telemetry === null) return appFor(env).fetch(withFleetWellKnown(request), env, ctx);
      return tracedFetch(telemetry, withFleetWellKnown(request), ctx, (traced) => appFor(env).fetch(traced, env, ctx));
    },
    // The cron trigger (wrangler.toml) wakes the motebit's object, so a fresh deployment registers with its relay
    // without waiting for a first request; the object's alarm does the rest.
    scheduled: async (controller, env, ctx) => {
      if (readSetting("syncUrl", { env }) === null) return;
      // Only `wrangler dev` can name this "cron" (its /cdn-cgi/handler/scheduled?cron=…): `npm start`'s wrapper
      // stopping the local edge. A deployment's scheduled events carry the crons of wrangler.toml, never this.
      if (controller.cron === LEAVE_RELAY_CRON) return motebitStub(env).leaveRelay();
      ctx.waitUntil(motebitStub(env).wake());
    },
  } satisfies ExportedHandler<EdgeEnv>;
  // workerd reads only the handler names it knows from the default export, so the class can ride along on it.
  return { ...handlers, MotebitObject: motebitObjectFor(served) };
}

/** The Worker's app for one env: the fleet's routes first (they close /m/… and /fleet/…), then the default motebit's. */
function workerApp(served: ToolRegistry, env: EdgeEnv): Hono<{ Bindings: EdgeEnv }> {
  // Shared by the default motebit and the fleet's: a source over its budget is over at each.
  const failedAuthLimiter = authFailureLimiter(env);
  const app = mountFleet(new Hono<{ Bindings: EdgeEnv }>(), served, failedAuthLimiter).route(
    "/",
    createApp<EdgeEnv>({ backend: durableObjectBackend(env), sourceOf: callerSource, tools: served, failedAuthLimiter }),
  );
  app.notFound(() => jsonResponse(404, { error: "not found" }));
  // Each mounted app answers its own errors; this is for the fleet's guards (a directory that cannot be asked).
  app.onError((err) => {
    console.error("motebit: internal error", err);
    return jsonResponse(500, { error: "internal error" });
  });
  return app;
}
