// What the Durable Object reads from its environment: its bindings (wrangler.toml) and every setting the edge reads,
// typed from the settings catalog (src/settings/catalog.ts) so a new setting needs no second list here. The Worker's
// EdgeEnv (worker/env.ts) adds the namespace of the objects themselves.
import type { EdgeSettingsEnv, VectorizeBinding, WorkersAiBinding } from "../src/index.js";

// A type alias, not an interface, so it is an EnvLike the settings readers take without a cast.
export type ObjectEnv = EdgeSettingsEnv & {
  /** Workers AI and Vectorize, when configured: the scale path for memory. */
  AI?: WorkersAiBinding;
  VECTORIZE?: VectorizeBinding;
};
