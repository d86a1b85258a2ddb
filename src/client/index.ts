// motebit-edge/client: a caller's helpers, for any runtime. Each mints a fresh mcp:call token per request.
export { signedFetch, type SignedFetch, type SignedFetchOptions } from "./signed-fetch.js";
export { healthUrlFor, motebitCredentialSource, type CredentialRequest, type CredentialSource, type MotebitCredentialSourceOptions } from "./credential-source.js";
export type { CallerKeyOptions } from "./caller-token.js";
