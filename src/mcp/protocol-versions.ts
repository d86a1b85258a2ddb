// MCP protocol revisions this server speaks, newest first. The relay still opens with 2025-03-26.
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
export const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];
/** What a Streamable HTTP request without an MCP-Protocol-Version header is assumed to speak (MCP spec). */
export const DEFAULT_HTTP_PROTOCOL_VERSION = "2025-03-26";

export function isSupportedProtocolVersion(v: string): boolean {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

/** The version the server answers an initialize with: the client's if we speak it, else our latest. */
export function negotiateProtocolVersion(requested: unknown): string {
  return typeof requested === "string" && isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
