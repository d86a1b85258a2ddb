// `mcp list`: starts one server briefly (within its start-up timeout) to learn whether it works and what it offers.
import type { McpServerConfig } from "./config.js";
import { start, StartFailure } from "./connection.js";

export async function probe(s: McpServerConfig): Promise<{ ok: true; toolNames: string[] } | { ok: false; error: string }> {
  try {
    const { conn, tools } = await start(s, { log: () => {}, forwardStderr: false });
    await conn.close().catch(() => {});
    return { ok: true, toolNames: tools.map((t) => t.name) };
  } catch (e) {
    // What was started is gone before the command exits.
    if (e instanceof StartFailure) await e.closed;
    return { ok: false, error: (e as Error).message };
  }
}
