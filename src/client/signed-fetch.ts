// The caller's side of signed bearer tokens: a `fetch` that mints a fresh `mcp:call` token for every request,
// because a server refuses a replayed jti (docs/protocol.md §5). Hand it to the MCP SDK's StreamableHTTPClientTransport:
//   new StreamableHTTPClientTransport(new URL(url), { fetch: signedFetch({ privateKey, target }) })
import { callerTokenMinter, type CallerKeyOptions } from "./caller-token.js";

export interface SignedFetchOptions extends CallerKeyOptions {
  /** The target server's motebit_id (its GET /health tells it): the token's `sub`. */
  target: string;
  /** The fetch to wrap; default the global one. */
  fetch?: typeof fetch;
}

export type SignedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function signedFetch(options: SignedFetchOptions): SignedFetch {
  if (typeof options.target !== "string" || options.target === "") throw new TypeError("target (the server's motebit_id) is required");
  const mint = callerTokenMinter(options);
  const base = options.fetch ?? fetch;
  return async (input, init) => {
    const credential = await mint(options.target);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    headers.set("Authorization", `Bearer ${credential}`);
    return base(input, { ...init, headers });
  };
}
