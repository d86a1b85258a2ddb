// Where the relay is and how this motebit talks to it (docs/protocol.md §9), read once from the host's settings
// (src/settings): the edge passes its Worker env; motebit-local passes process.env and its --config file, whose
// values the environment overrides. A bad value is a StartupError naming exactly where it came from.
import { readSetting, type EnvLike } from "../settings/read.js";

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

/**
 * `env` is the Worker env or process.env; `file` the parsed config file (null when none), named in errors
 * by `fileLabel` (e.g. "config file /x/motebit.json: "). `selfTest` here is MOTEBIT_SELF_TEST; the CLI ORs in --self-test.
 */
export function readRelaySettings(env: EnvLike, file: Record<string, unknown> | null = null, fileLabel = ""): RelaySettings {
  const src = { env, file: file === null ? null : { fields: file, label: fileLabel } };
  return {
    syncUrl: readSetting("syncUrl", src),
    publicUrl: readSetting("publicUrl", src),
    apiToken: readSetting("relayApiToken", src),
    selfTest: readSetting("selfTest", src),
    selfTestTimeoutMs: readSetting("selfTestTimeoutMs", src),
    heartbeatMs: readSetting("heartbeatMs", src),
  };
}
