// The edge Worker: the host-neutral app over the deployment's Durable Object.
import { createApp } from "./app.js";
import { durableObjectBackend, motebitStub } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";

export { MotebitObject } from "../durable-objects/motebit-object.js";

const app = createApp<EdgeEnv>(durableObjectBackend);

export default {
  fetch: app.fetch,
  // The cron trigger (wrangler.toml) wakes the motebit's object, so a fresh deployment registers with its relay
  // without waiting for a first request; the object's alarm does the rest.
  scheduled: async (_controller, env, ctx) => {
    if (env.MOTEBIT_SYNC_URL) ctx.waitUntil(motebitStub(env).wake());
  },
} satisfies ExportedHandler<EdgeEnv>;
