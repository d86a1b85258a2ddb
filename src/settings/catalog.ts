// Every setting of both hosts, once: its environment name (wrangler vars and secrets at the edge; the process
// environment for motebit-local), its config-file key (motebit-local's --config file), its default, its bounds (in
// its reader) and what it means. docs/configuration.md is generated from this list (npm run docs:config).
import * as r from "./readers.js";

/** Where a setting is read: both hosts, the edge only (a Worker var or secret) or motebit-local only. */
export type SettingHost = "both" | "edge" | "local";

export interface Setting<T> {
  /** The environment name, or null when only the config file holds it. */
  env: string | null;
  /** The config-file key, or null when the config file cannot hold it. */
  key: string | null;
  host: SettingHost;
  /** Credentials: `wrangler secret put` at the edge, a chmod 600 config file on the owner's machine. */
  secret?: boolean;
  /** The default as the documentation states it. */
  defaultText: string;
  meaning: string;
  /** Whole-number settings: the smallest and largest value accepted. */
  bounds?: readonly [number, number];
  read: r.Reader<T>;
}

/** Keeps each setting's env name and host as literal types, so a host's env type can be derived from this list. */
function setting<T, const E extends string | null, const H extends SettingHost>(s: Setting<T> & { env: E; host: H }): Setting<T> & { env: E; host: H } {
  return s;
}

/** A whole-number setting: its bounds are documented and enforced from the same pair. */
function whole(min: number, max: number, unit: string): { bounds: readonly [number, number]; read: r.Reader<number | null> } {
  return { bounds: [min, max], read: r.wholeNumber(min, max, unit) };
}

function wholeOr(fallback: number, min: number, max: number, unit: string): { bounds: readonly [number, number]; read: r.Reader<number> } {
  return { bounds: [min, max], read: r.withDefault(r.wholeNumber(min, max, unit), fallback) };
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;
export const AI_PROVIDERS = ["anthropic", "ollama", "workers-ai"] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];
export const EMBEDDERS = ["local", "ollama", "workers-ai"] as const;
export type EmbedderName = (typeof EMBEDDERS)[number];
/** The versioned API root, as @ai-sdk/anthropic reads it: requests go to `${base}/messages`. */
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";
/** Ollama's API root, as ollama-ai-provider-v2 reads it: requests go to `${base}/chat` and `${base}/embed`. */
export const DEFAULT_OLLAMA_BASE_URL = "http://127.0.0.1:11434/api";
export const AI_TASK_TIMEOUT_MS = 120_000;
export const DIRECT_TASK_TIMEOUT_MS = 60_000;
export const MAX_TASK_TIMEOUT_MS = 60 * 60_000;
export const DEFAULT_HEARTBEAT_MS = 5 * 60_000;
export const DEFAULT_SELF_TEST_TIMEOUT_MS = 60_000;
const MAX_SELF_TEST_TIMEOUT_MS = 30 * 60_000;

export const SETTINGS = {
  // Who may call, and how.
  authToken: setting({
    env: "MOTEBIT_AUTH_TOKEN",
    key: "authToken",
    host: "both",
    secret: true,
    defaultText: "none",
    meaning:
      "The static bearer token HTTP callers may present, at least 16 characters: the named token `static` (caller `static:static`, trust verified). Kept only as its SHA-256. Unset: signed motebit tokens only (or `authTokens`).",
    read: r.staticTokenHash,
  }),
  authTokens: setting({
    env: "MOTEBIT_AUTH_TOKENS",
    key: "authTokens",
    host: "both",
    secret: true,
    defaultText: "none",
    meaning:
      'Named static bearer tokens, each its own caller `static:<name>` (sessions, tasks, quotas, audit, receipts): `{"<name>": {"token": "<at least 16 characters>", "trust": "first_contact|verified|trusted|blocked"}}` or `{"<name>": "<token>"}` (trust verified); JSON text in the environment, an object in the config file. Kept only as SHA-256; a removed or changed token ends its sessions and tasks.',
    read: r.staticTokens,
  }),
  knownCallers: setting({
    env: "MOTEBIT_KNOWN_CALLERS",
    key: "knownCallers",
    host: "both",
    defaultText: "none",
    meaning: 'Pinned keys of other motebits: `{"<motebit_id>": {"public_key": "<64 hex>", "trust": "first_contact|verified|trusted|blocked"}}` (JSON text in the environment, an object in wrangler.toml or the config file).',
    read: r.knownCallers,
  }),
  relayTrust: setting({
    env: "MOTEBIT_RELAY_TRUST",
    key: "relayTrust",
    host: "both",
    defaultText: "none",
    meaning: "The relay's Ed25519 public key (64 hex): tokens it signs are the relay principal.",
    read: r.publicKey,
  }),
  relayId: setting({
    env: "MOTEBIT_RELAY_ID",
    key: "relayId",
    host: "both",
    defaultText: "none",
    meaning: "The relay's motebit_id: when set, only tokens whose `mid` is this are the relay's.",
    read: r.text,
  }),
  relayForwardToken: setting({
    env: "MOTEBIT_RELAY_FORWARD_TOKEN",
    key: "relayForwardToken",
    host: "both",
    secret: true,
    defaultText: "none",
    meaning:
      "The bearer the relay presents when it forwards a task (today's reference relay sends its `MOTEBIT_API_TOKEN`); compared in constant time; its caller is the relay principal `relay:<MOTEBIT_RELAY_ID or relay>`, trust verified, never the owner; independent of the static token, and refused when it equals one (at start-up, and as a fleet motebit's token on create and PATCH). At the edge it also admits the relay's forwards into every fleet motebit.",
    read: r.text,
  }),
  fleetToken: setting({
    env: "MOTEBIT_FLEET_TOKEN",
    key: null,
    host: "edge",
    secret: true,
    defaultText: "none (no fleet)",
    meaning: "The operator's bearer for `/fleet/…`; set, the fleet routes `/m/<name>/…` exist too. Unset: every fleet route is 404. Never a caller of any motebit.",
    read: r.text,
  }),
  allowedOrigins: setting({
    env: "MOTEBIT_ALLOWED_ORIGINS",
    key: "allowedOrigins",
    host: "both",
    defaultText: "none",
    meaning: "Browser origins allowed besides our own and loopback (comma-separated in the environment, an array in the config file).",
    read: r.origins,
  }),
  rateLimit: setting({
    env: "MOTEBIT_RATE_LIMIT",
    key: "rateLimit",
    host: "both",
    defaultText: String(DEFAULT_RATE_LIMIT_PER_MINUTE),
    meaning: "Requests per minute per caller (a burst of the same size); 0 switches the limit off.",
    ...wholeOr(DEFAULT_RATE_LIMIT_PER_MINUTE, 0, MAX_RATE_LIMIT_PER_MINUTE, "requests per minute (0 disables)"),
  }),

  // The motebit's own identity.
  privateKey: setting({
    env: "MOTEBIT_PRIVATE_KEY",
    key: null,
    host: "edge",
    secret: true,
    defaultText: "none",
    meaning: "The Ed25519 private key seed (64 hex). Unset: the Durable Object generates one and keeps it.",
    read: r.text,
  }),
  identity: setting({
    env: "MOTEBIT_IDENTITY",
    key: null,
    host: "edge",
    defaultText: "none",
    meaning: "The signed identity file (motebit.md) the key must match.",
    read: r.document,
  }),
  privateKeyPath: setting({
    env: null,
    key: "privateKeyPath",
    host: "local",
    defaultText: "beside the identity file",
    meaning: "Where the private key is (relative to the config file's folder).",
    read: r.text,
  }),
  dataDir: setting({
    env: null,
    key: "dataDir",
    host: "local",
    defaultText: "`<identity folder>/.motebit`",
    meaning: "Where memories, receipts and the audit log live (relative to the config file's folder).",
    read: r.text,
  }),
  durability: setting({
    env: null,
    key: "durability",
    host: "local",
    defaultText: "normal",
    meaning: "`normal` survives a process crash; `full` fsyncs every commit and survives a power loss.",
    read: r.withDefault(r.oneOf(["normal", "full"] as const), "normal" as const),
  }),
  mcpServers: setting({
    env: null,
    key: "mcpServers",
    host: "local",
    defaultText: "none",
    meaning: "The owner's MCP servers, in the shape MCP hosts use; their tools are served over stdio only (`motebit-local mcp add`).",
    read: r.raw,
  }),

  // AI mode: the config file holds these under their environment names.
  mode: setting({
    env: "MOTEBIT_MODE",
    key: "MOTEBIT_MODE",
    host: "both",
    defaultText: "`ai` when the provider's credential is set, else `direct`",
    meaning: "`direct` (one tool per task, no model) or `ai` (a model picks and chains tools). `--direct` wins.",
    read: r.oneOf(["direct", "ai"] as const),
  }),
  provider: setting({
    env: "MOTEBIT_PROVIDER",
    key: "MOTEBIT_PROVIDER",
    host: "both",
    defaultText: "anthropic",
    meaning: "`anthropic`, `ollama` or `workers-ai` (edge only: needs the `AI` binding).",
    read: r.oneOf(AI_PROVIDERS),
  }),
  model: setting({
    env: "MOTEBIT_MODEL",
    key: "MOTEBIT_MODEL",
    host: "both",
    defaultText: "the provider's default",
    meaning: "The model id, verbatim (defaults: claude-sonnet-4-5, llama3.1, @cf/meta/llama-3.3-70b-instruct-fp8-fast).",
    read: r.text,
  }),
  anthropicApiKey: setting({
    env: "ANTHROPIC_API_KEY",
    key: "ANTHROPIC_API_KEY",
    host: "both",
    secret: true,
    defaultText: "none",
    meaning: "The Anthropic key.",
    read: r.text,
  }),
  anthropicBaseUrl: setting({
    env: "ANTHROPIC_BASE_URL",
    key: "ANTHROPIC_BASE_URL",
    host: "both",
    defaultText: DEFAULT_ANTHROPIC_BASE_URL,
    meaning: "The versioned API root as `@ai-sdk/anthropic` reads it (requests go to `<root>/messages`).",
    read: r.withDefault(r.httpUrl(DEFAULT_ANTHROPIC_BASE_URL), DEFAULT_ANTHROPIC_BASE_URL),
  }),
  ollamaBaseUrl: setting({
    env: "OLLAMA_BASE_URL",
    key: "OLLAMA_BASE_URL",
    host: "both",
    defaultText: DEFAULT_OLLAMA_BASE_URL,
    meaning: "Ollama's API root as `ollama-ai-provider-v2` reads it (chat at `/chat`, embeddings at `/embed`).",
    read: r.withDefault(r.httpUrl(DEFAULT_OLLAMA_BASE_URL), DEFAULT_OLLAMA_BASE_URL),
  }),
  taskTimeoutMs: setting({
    env: "MOTEBIT_TASK_TIMEOUT_MS",
    key: "taskTimeoutMs",
    host: "both",
    defaultText: `${AI_TASK_TIMEOUT_MS} in AI mode, ${DIRECT_TASK_TIMEOUT_MS} in direct mode`,
    meaning: "One wall-clock budget per `motebit_task` / `motebit_query` call, covering every model and tool call.",
    ...whole(1, MAX_TASK_TIMEOUT_MS, "milliseconds"),
  }),
  embedder: setting({
    env: "MOTEBIT_EMBEDDER",
    key: "MOTEBIT_EMBEDDER",
    host: "both",
    defaultText: "edge: `workers-ai` where the `AI` binding exists, else `local`; motebit-local: a sentence encoder with the word table",
    meaning: "How memories are embedded for recall: unset in motebit-local, a sentence encoder (USE-lite, offline, loaded on first use) combined with `local`'s vectors; `local` (offline: word vectors for meaning plus hashed n-grams for exact names), `ollama` (nomic-embed-text), `workers-ai` (edge only).",
    read: r.oneOf(EMBEDDERS),
  }),

  // The relay loop.
  syncUrl: setting({
    env: "MOTEBIT_SYNC_URL",
    key: "syncUrl",
    host: "both",
    defaultText: "none (no relay)",
    meaning: "The relay's base URL; set, the motebit registers, heartbeats and takes tasks from it.",
    read: r.baseUrl,
  }),
  publicUrl: setting({
    env: "MOTEBIT_PUBLIC_URL",
    key: "publicUrl",
    host: "both",
    defaultText: "none",
    meaning:
      "Where peers, the relay and OAuth clients reach this motebit (its base URL); the edge needs it to register. Set, it is the base of the OAuth issuer, metadata URLs and token audience on both hosts, whatever Host a request names; unset, only https or loopback hosts (edge) or the listening address (motebit-local) are answered.",
    read: r.baseUrl,
  }),
  relayApiToken: setting({
    env: "MOTEBIT_RELAY_API_TOKEN",
    key: "apiToken",
    host: "both",
    secret: true,
    defaultText: "none (tokens signed with the motebit's key)",
    meaning:
      "A relay-issued API token, sent as `Authorization: Bearer <token>` to the relay on every request but deregistering (which always uses a signed token). Needed for the self-test to reach `passed`. Fleet motebits never use it.",
    read: r.text,
  }),
  selfTest: setting({
    env: "MOTEBIT_SELF_TEST",
    key: null,
    host: "both",
    defaultText: "0",
    meaning: "1: after registering, submit a task to ourselves through the relay (motebit-local: also `--self-test`). Without `MOTEBIT_RELAY_API_TOKEN` it ends at `auth_verified`: a relay never routes a motebit's own task back to it.",
    read: r.flag,
  }),
  selfTestTimeoutMs: setting({
    env: "MOTEBIT_SELF_TEST_TIMEOUT_MS",
    key: "selfTestTimeoutMs",
    host: "both",
    defaultText: String(DEFAULT_SELF_TEST_TIMEOUT_MS),
    meaning: "How long the self-test waits for its receipt.",
    ...wholeOr(DEFAULT_SELF_TEST_TIMEOUT_MS, 1_000, MAX_SELF_TEST_TIMEOUT_MS, "milliseconds"),
  }),
  heartbeatMs: setting({
    env: "MOTEBIT_RELAY_HEARTBEAT_MS",
    key: null,
    host: "both",
    defaultText: String(DEFAULT_HEARTBEAT_MS),
    meaning: "The relay heartbeat interval; every other liveness interval scales with it.",
    ...wholeOr(DEFAULT_HEARTBEAT_MS, 100, 24 * 60 * 60_000, "milliseconds"),
  }),
} as const;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<K extends SettingName> = ReturnType<(typeof SETTINGS)[K]["read"]>;

type Catalog = typeof SETTINGS;

/** The environment name of every setting the edge reads (host "both" or "edge"). */
export type EdgeSettingName = { [K in keyof Catalog]: Catalog[K]["host"] extends "local" ? never : Catalog[K]["env"] }[keyof Catalog] & string;

/** The edge's settings as a Worker env holds them, all optional: secrets and vars (text, or JSON from wrangler.toml). */
export type EdgeSettingsEnv = { readonly [N in EdgeSettingName]?: string | number | boolean | Record<string, unknown> };
