// What the Durable Object reads from its environment: bindings (wrangler.toml) and settings (vars and secrets, all
// optional). The Worker's EdgeEnv (worker/env.ts) adds the namespace of the objects themselves.
import type { VectorizeBinding, WorkersAiBinding } from "../src/index.js";

export interface ObjectEnv {
  /** Workers AI and Vectorize, when configured: the scale path for memory. */
  AI?: WorkersAiBinding;
  VECTORIZE?: VectorizeBinding;
  MOTEBIT_PRIVATE_KEY?: string;
  MOTEBIT_IDENTITY?: string;
  MOTEBIT_AUTH_TOKEN?: string;
  MOTEBIT_AUTH_TOKENS?: string | Record<string, unknown>;
  MOTEBIT_KNOWN_CALLERS?: string | Record<string, unknown>;
  MOTEBIT_RELAY_TRUST?: string;
  MOTEBIT_ALLOWED_ORIGINS?: string;
  MOTEBIT_RATE_LIMIT?: string | number;
  /** AI mode (docs/ai-mode.md): the same names motebit-local reads. */
  MOTEBIT_MODE?: string;
  MOTEBIT_PROVIDER?: string;
  MOTEBIT_MODEL?: string;
  ANTHROPIC_API_KEY?: string;
  ANTHROPIC_BASE_URL?: string;
  OLLAMA_BASE_URL?: string;
  MOTEBIT_TASK_TIMEOUT_MS?: string | number;
  MOTEBIT_EMBEDDER?: string;
  MOTEBIT_RELAY_ID?: string;
  MOTEBIT_RELAY_FORWARD_TOKEN?: string;
  /** The relay loop (src/relay/settings.ts): relay URL, this Worker's public URL, relay API token, self-test. */
  MOTEBIT_SYNC_URL?: string;
  MOTEBIT_PUBLIC_URL?: string;
  MOTEBIT_RELAY_API_TOKEN?: string;
  MOTEBIT_SELF_TEST?: string;
  MOTEBIT_SELF_TEST_TIMEOUT_MS?: string | number;
  MOTEBIT_RELAY_HEARTBEAT_MS?: string | number;
  /** The fleet operator's bearer token (docs/fleet.md); unset = no fleet, /m/… and /fleet/… are 404. */
  MOTEBIT_FLEET_TOKEN?: string;
}
