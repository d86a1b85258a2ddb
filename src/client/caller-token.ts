// One caller key, a fresh `mcp:call` token per request: what signedFetch and motebitCredentialSource both mint with.
import { createSigner, mintBearerToken, SIGNED_TOKEN_PREFIX, sovereignMotebitId, type Signer } from "../protocol/index.js";

export interface CallerKeyOptions {
  /** The caller's Ed25519 private key: 64 hex characters (the content of a `motebit.key`). */
  privateKey: string;
  /** The caller's motebit_id; default the sovereign id of the key (what `motebit-local init` writes). */
  motebitId?: string;
  /** The device id claim; default "motebit-client". */
  deviceId?: string;
  /** Token lifetime in seconds, 1 to 300 (servers refuse more than 5 minutes); default 60. */
  ttlSeconds?: number;
}

/** `motebit:<token>` for `target` (the server's motebit_id), a new jti each call: the value after `Bearer `. */
export type MintCredential = (target: string) => Promise<string>;

export function callerTokenMinter(options: CallerKeyOptions): MintCredential {
  const ttl = options.ttlSeconds ?? 60;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > 300) throw new RangeError(`ttlSeconds must be an integer from 1 to 300, got ${ttl}`);
  if (typeof options.privateKey !== "string" || !/^[0-9a-fA-F]{64}$/.test(options.privateKey)) {
    throw new TypeError("privateKey must be 64 hex characters (an Ed25519 seed)");
  }
  const caller: Promise<{ signer: Signer; mid: string }> = createSigner(options.privateKey).then(async (signer) => ({
    signer,
    mid: options.motebitId ?? (await sovereignMotebitId(signer.publicKeyHex)),
  }));
  caller.catch(() => {}); // reported by the first request, never as an unhandled rejection
  return async (target) => {
    const { signer, mid } = await caller;
    const token = await mintBearerToken({ mid, did: options.deviceId ?? "motebit-client", aud: "mcp:call", sub: target, ttlMs: ttl * 1000 }, signer);
    return `${SIGNED_TOKEN_PREFIX}${token}`;
  };
}
