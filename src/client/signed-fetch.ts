// The caller's side of signed bearer tokens: a `fetch` that mints a fresh `mcp:call` token for every request,
// because a server refuses a replayed jti (docs/protocol.md §5). Hand it to the MCP SDK's StreamableHTTPClientTransport:
//   new StreamableHTTPClientTransport(new URL(url), { fetch: signedFetch({ privateKey, target }) })
import { createSigner, mintBearerToken, SIGNED_TOKEN_PREFIX, sovereignMotebitId, type Signer } from "../protocol/index.js";

export interface SignedFetchOptions {
  /** The caller's Ed25519 private key: 64 hex characters (the content of a `motebit.key`). */
  privateKey: string;
  /** The target server's motebit_id (its GET /health tells it): the token's `sub`. */
  target: string;
  /** The caller's motebit_id; default the sovereign id of the key (what `motebit-local init` writes). */
  motebitId?: string;
  /** The device id claim; default "motebit-client". */
  deviceId?: string;
  /** Token lifetime in seconds, 1 to 300 (servers refuse more than 5 minutes); default 60. */
  ttlSeconds?: number;
  /** The fetch to wrap; default the global one. */
  fetch?: typeof fetch;
}

export type SignedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function signedFetch(options: SignedFetchOptions): SignedFetch {
  const ttl = options.ttlSeconds ?? 60;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 300) throw new RangeError(`ttlSeconds must be an integer from 1 to 300, got ${ttl}`);
  if (typeof options.target !== "string" || options.target === "") throw new TypeError("target (the server's motebit_id) is required");
  if (!/^[0-9a-fA-F]{64}$/.test(options.privateKey)) throw new TypeError("privateKey must be 64 hex characters (an Ed25519 seed)");
  const caller: Promise<{ signer: Signer; mid: string }> = createSigner(options.privateKey).then(async (signer) => ({
    signer,
    mid: options.motebitId ?? (await sovereignMotebitId(signer.publicKeyHex)),
  }));
  caller.catch(() => {}); // reported by the first request, never as an unhandled rejection
  const base = options.fetch ?? fetch;
  return async (input, init) => {
    const { signer, mid } = await caller;
    const token = await mintBearerToken(
      { mid, did: options.deviceId ?? "motebit-client", aud: "mcp:call", sub: options.target, ttlMs: ttl * 1000 },
      signer,
    );
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    headers.set("Authorization", `Bearer ${SIGNED_TOKEN_PREFIX}${token}`);
    return base(input, { ...init, headers });
  };
}
