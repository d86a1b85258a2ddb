// A fleet motebit's name: the last path segment of its URL (/m/<name>/mcp) and the operator's handle for it.

export const FLEET_NAME_PATTERN = /^[a-z0-9-]{1,63}$/;

export function isFleetName(name: unknown): name is string {
  return typeof name === "string" && FLEET_NAME_PATTERN.test(name);
}

/** `<public url>/m/<name>`: where peers and the relay reach a fleet motebit (its MCP endpoint is this plus /mcp). */
export function fleetMotebitUrl(publicUrl: string, name: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/m/${name}`;
}
