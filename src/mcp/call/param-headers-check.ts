// A 2026-07-28 request over HTTP: the arguments a tool mirrors in Mcp-Param-* headers must agree with them.
import type { CallContext } from "../call-context.js";
import type { CatalogEntry } from "../catalog.js";
import { RpcError } from "../jsonrpc.js";
import { paramHeaderMismatch } from "../stateless/param-headers.js";
import { HEADER_MISMATCH } from "../stateless/revision.js";

/** The error to answer with when the headers disagree with the arguments; null when they agree or there are none. */
export function paramHeaderError(c: CallContext, entry: CatalogEntry, args: unknown): RpcError | null {
  const headers = c.call.paramHeaders;
  const mismatch = headers === undefined ? null : paramHeaderMismatch(entry.inputSchema, args, headers);
  return mismatch === null ? null : new RpcError(HEADER_MISMATCH, `Header mismatch: ${mismatch}`);
}
