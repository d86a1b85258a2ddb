// The edge as a library: a user's Worker entry is
//   export { MotebitObject } from "motebit-edge";
//   export default createMotebitWorker({ tools });
import { Hono } from "hono";
import { createApp, jsonResponse, readSetting, type ServedPrompt, type ServedResource, type ServedTool } from "../src/index.js";
import { durableObjectBackend, motebitStub } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { registerServedTools } from "../durable-objects/served-tools.js";
import { mountFleet } from "./fleet-routes.js";
import { withFleetWellKnown } from "./oauth-paths.js";

export interface MotebitWorkerOptions {
  /** The served tools: an array of { definition, handler } (docs/tools-and-resources.md). */
  tools: readonly ServedTool[];
  /** The tools module's own resources and prompts (docs/tools-and-resources.md), listed after the motebit's. */
  resources?: readonly ServedResource[];
  prompts?: readonly ServedPrompt[];
}

/** The Worker's handlers for this deployment's motebit; also hands `tools` to its Durable Object. */
export function createMotebitWorker(options: MotebitWorkerOptions) {
  const served = registerServedTools(options.tools, { resources: options.resources, prompts: options.prompts });
  // The fleet's routes first (they close /m/… and /fleet/…), then the default motebit's for everything else.
  const app = mountFleet(new Hono<{ Bindings: EdgeEnv }>(), served).route("/", createApp<EdgeEnv>(durableObjectBackend));
  app.notFound(() => jsonResponse(404, { error: "not found" }));
  // Each mounted app answers its own errors; this is for the fleet's guards (a directory that cannot be asked).
  app.onError((err) => {
    console.error("motebit: internal error", err);
    return jsonResponse(500, { error: "internal error" });
  });
  return {
    fetch: (request: Request, env: EdgeEnv, ctx: ExecutionContext) => app.fetch(withFleetWellKnown(request), env, ctx),
    // The cron trigger (wrangler.toml) wakes the motebit's object, so a fresh deployment registers with its relay
    // without waiting for a first request; the object's alarm does the rest.
    scheduled: async (_controller, env, ctx) => {
      if (readSetting("syncUrl", { env }) !== null) ctx.waitUntil(motebitStub(env).wake());
    },
  } satisfies ExportedHandler<EdgeEnv>;
}
