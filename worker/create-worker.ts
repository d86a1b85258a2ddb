// The edge as a library: a user's Worker entry is
//   export { MotebitObject } from "motebit-edge";
//   export default createMotebitWorker({ tools });
import { createApp, readSetting, type ServedPrompt, type ServedResource, type ServedTool } from "../src/index.js";
import { durableObjectBackend, motebitStub } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { registerServedTools } from "../durable-objects/served-tools.js";
import { fleetRoutes, isFleetPath } from "./fleet-routes.js";
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
  registerServedTools(options.tools, { resources: options.resources, prompts: options.prompts });
  const app = createApp<EdgeEnv>(durableObjectBackend);
  const fleet = fleetRoutes();
  return {
    // /m/… and /fleet/… never reach the default motebit's app (and so never its object).
    fetch: (request: Request, env: EdgeEnv, ctx: ExecutionContext) => {
      const routed = withFleetWellKnown(request);
      return isFleetPath(new URL(routed.url).pathname) ? fleet(routed, env, ctx) : app.fetch(routed, env, ctx);
    },
    // The cron trigger (wrangler.toml) wakes the motebit's object, so a fresh deployment registers with its relay
    // without waiting for a first request; the object's alarm does the rest.
    scheduled: async (_controller, env, ctx) => {
      if (readSetting("syncUrl", { env }) !== null) ctx.waitUntil(motebitStub(env).wake());
    },
  } satisfies ExportedHandler<EdgeEnv>;
}
