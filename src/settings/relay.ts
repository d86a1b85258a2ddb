// Where the relay is and how this motebit talks to it (docs/protocol.md §9): one section of a host's settings,
// assembled with the others by host-settings.ts. A bad value is a StartupError naming exactly where it came from.
import { readSetting, type SettingsSource } from "./read.js";

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

/** `selfTest` here is MOTEBIT_SELF_TEST; the CLI ORs in --self-test. */
export function readRelaySettings(src: SettingsSource): RelaySettings {
  return {
    syncUrl: readSetting("syncUrl", src),
    publicUrl: readSetting("publicUrl", src),
    apiToken: readSetting("relayApiToken", src),
    selfTest: readSetting("selfTest", src),
    selfTestTimeoutMs: readSetting("selfTestTimeoutMs", src),
    heartbeatMs: readSetting("heartbeatMs", src),
  };
}
