// The protocol core: one import point for every other module (and for other hosts).
export * from "./errors.js";
export * from "./suites.js";
export * from "./bytes.js";
export * from "./base64url.js";
export * from "./canonical-json.js";
export * from "./sha256.js";
export * from "./ed25519.js";
export * from "./did-key.js";
export * from "./motebit-id.js";
export * from "./identity-tag.js";
export * from "./yaml-subset.js";
export * from "./identity-file.js";
export * from "./receipt.js";
export type { Verdict } from "./verdict.js";
export * from "./bearer-token.js";
export * from "./delegation-token.js";
export * from "./presentation.js";
export * from "./relay-task-id.js";
