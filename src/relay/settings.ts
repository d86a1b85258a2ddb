// Where the relay is and how this motebit talks to it (docs/protocol.md §9), read once from the host's settings.
// Each setting has an environment name and a config-file key; the environment wins. The edge passes its
// Worker env only; motebit-local passes process.env and its --config file. A bad value is a StartupError
// naming exactly where it came from.
import { StartupError } from "../server/startup-error.js";

export const DEFAULT_HEARTBEAT_MS = 5 * 60_000;
export const DEFAULT_SELF_TEST_TIMEOUT_MS = 60_000;
const MAX_SELF_TEST_TIMEOUT_MS = 30 * 60_000;

export interface RelaySettings {
  /** The relay's base URL (no trailing slash), or null: no relay, nothing registers, nothing is logged as an error. */
  syncUrl: string | null;
  /** Where peers and the relay reach this motebit (base URL, no trailing slash), or null. */
  publicUrl: string | null;
  /** A relay-issued API token: sent as `Authorization: Bearer <apiToken>`; null = tokens signed with our key. */
  apiToken: string | null;
  /** Submit a task to ourselves through the relay after registration. */
  selfTest: boolean;
  selfTestTimeoutMs: number;
  /** The heartbeat interval; every other liveness interval scales with it (a short value is the tests' knob). */
  heartbeatMs: number;
}

/** Where one setting lives: its environment variable and its config-file key. */
const SOURCES = {
  syncUrl: { env: "MOTEBIT_SYNC_URL", key: "syncUrl" },
  publicUrl: { env: "MOTEBIT_PUBLIC_URL", key: "publicUrl" },
  apiToken: { env: "MOTEBIT_RELAY_API_TOKEN", key: "apiToken" },
  selfTest: { env: "MOTEBIT_SELF_TEST", key: null },
  selfTestTimeoutMs: { env: "MOTEBIT_SELF_TEST_TIMEOUT_MS", key: "selfTestTimeoutMs" },
  heartbeatMs: { env: "MOTEBIT_RELAY_HEARTBEAT_MS", key: null },
} as const;

/** The config-file keys this module reads (motebit-local lists them as known). */
export const RELAY_CONFIG_KEYS = ["syncUrl", "publicUrl", "apiToken", "selfTestTimeoutMs"] as const;

type Record_ = Record<string, unknown>;

interface Found {
  value: unknown;
  where: string;
}

function lookup(name: keyof typeof SOURCES, env: Record_, file: Record_ | null, fileLabel: string): Found | null {
  const s = SOURCES[name];
  const e = env[s.env];
  if (e !== undefined && e !== null && !(typeof e === "string" && e.trim() === "")) return { value: e, where: s.env };
  if (s.key !== null && file !== null) {
    const f = file[s.key];
    if (f !== undefined && f !== null) return { value: f, where: `${fileLabel}${s.key}` };
  }
  return null;
}

function text(f: Found | null): string | null {
  if (f === null) return null;
  if (typeof f.value !== "string" || f.value.trim() === "") throw new StartupError(`${f.where} must be a non-empty string`);
  return f.value.trim();
}

/** An http(s) base URL without a trailing slash; a trailing /mcp is dropped (the relay adds /mcp and /health itself). */
function baseUrl(f: Found | null): string | null {
  const v = text(f);
  if (v === null || f === null) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new StartupError(`${f.where} must be an http(s) URL like https://relay.example.com, got ${JSON.stringify(v)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new StartupError(`${f.where} must be an http(s) URL, got ${JSON.stringify(v)}`);
  if (u.search !== "" || u.hash !== "") throw new StartupError(`${f.where} must not carry a query or fragment, got ${JSON.stringify(v)}`);
  return (u.origin + u.pathname).replace(/\/+$/, "").replace(/\/mcp$/, "");
}

function wholeNumber(f: Found | null, fallback: number, min: number, max: number): number {
  if (f === null) return fallback;
  const v = f.value;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new StartupError(`${f.where} must be a whole number of milliseconds from ${min} to ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

function flag(f: Found | null): boolean {
  if (f === null) return false;
  const v = String(f.value).trim().toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  throw new StartupError(`${f.where} must be 1 or 0, got ${JSON.stringify(f.value)}`);
}

/**
 * `env` is the Worker env or process.env; `file` the parsed config file (null when none), named in errors
 * by `fileLabel` (e.g. "config file /x/motebit.json: "). `selfTest` here is MOTEBIT_SELF_TEST; the CLI ORs in --self-test.
 */
export function readRelaySettings(env: Record_, file: Record_ | null = null, fileLabel = ""): RelaySettings {
  const get = (name: keyof typeof SOURCES) => lookup(name, env, file, fileLabel);
  return {
    syncUrl: baseUrl(get("syncUrl")),
    publicUrl: baseUrl(get("publicUrl")),
    apiToken: text(get("apiToken")),
    selfTest: flag(get("selfTest")),
    selfTestTimeoutMs: wholeNumber(get("selfTestTimeoutMs"), DEFAULT_SELF_TEST_TIMEOUT_MS, 1_000, MAX_SELF_TEST_TIMEOUT_MS),
    heartbeatMs: wholeNumber(get("heartbeatMs"), DEFAULT_HEARTBEAT_MS, 100, 24 * 60 * 60_000),
  };
}
