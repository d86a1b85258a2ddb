// Cryptosuite ids carried in the `suite` field (docs/protocol.md §1). An unknown suite fails verification and throws when signing.
export const SUITE_RECEIPT = "motebit-jcs-ed25519-b64-v1"; // receipts, delegation tokens
export const SUITE_IDENTITY = "motebit-jcs-ed25519-hex-v1"; // identity file
export const SUITE_TOKEN = "motebit-jwt-ed25519-v1"; // bearer tokens
