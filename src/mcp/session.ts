// What one MCP session holds besides its row: what the client said it can do, the log level it asked for,
// and the resources it watches. The host keeps one per session (stdio: one; HTTP: one per Mcp-Session-Id)
// and passes it per request, beside the principal; what belongs to one request or task is in call-state.ts.

import { LOG_LEVELS, type LogLevel } from "../tools/log-level.js";

export interface SessionState {
  /** `capabilities` of the client's initialize; null until then (or after a host restart). */
  clientCapabilities: Record<string, unknown> | null;
  /** notifications/message below this level are not sent; null: none are (a 2026-07-28 request that asked for none). */
  logLevel: LogLevel | null;
  /** Resource URIs this session subscribed to. */
  subscriptions: Set<string>;
}

/** Logs at info and above reach a client that never called logging/setLevel. */
export function newSessionState(): SessionState {
  return { clientCapabilities: null, logLevel: "info", subscriptions: new Set() };
}

export function logLevelAtLeast(level: LogLevel, threshold: LogLevel | null): boolean {
  return threshold !== null && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

export function clientSupports(s: SessionState, capability: "elicitation" | "sampling" | "roots"): boolean {
  const caps = s.clientCapabilities;
  return caps !== null && typeof caps[capability] === "object" && caps[capability] !== null;
}
