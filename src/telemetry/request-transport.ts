// What the transport knows of one MCP request that its server span records (the MCP semantic conventions): HTTP's
// trace headers, the session and protocol version its headers name, and which transport it came on. The host
// (src/server/mcp-endpoint.ts, the stdio host) hands it to the engine with the message.
import type { TraceCarrier } from "./trace-context.js";

export interface RequestTransport {
  /** `network.transport`: "tcp" for HTTP, "pipe" for stdio. */
  readonly network: "tcp" | "pipe";
  /** The HTTP `traceparent`/`tracestate`/`baggage` headers: the parent when `_meta` names none, else a link. */
  readonly headers?: TraceCarrier;
  /** `Mcp-Session-Id`. */
  readonly sessionId?: string | null;
  /** `MCP-Protocol-Version`. */
  readonly protocolVersion?: string | null;
}

/** A stdio message: no headers, no session id on the wire. */
export const STDIO_TRANSPORT: RequestTransport = Object.freeze({ network: "pipe" });
