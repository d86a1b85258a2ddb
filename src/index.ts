// The core as a package entry (motebit-edge/core): everything the hosts (worker/, durable-objects/, motebit-local)
// use from src/, and nothing else (tests and benches import src/ files directly). Hosts import the core only through
// this file or, for AI mode, its lazy twin src/ai.ts; the layering check (.dependency-cruiser.cjs) holds them to it.
// Grouped by what a host needs.

// Keys and signatures: identities, DIDs, signed identity files, bearer and delegation tokens, receipts.
export {
  SIGNED_TOKEN_PREFIX, constantTimeEqual, createIdentityDoc, createSigner, didKeyToPublicKey, ed25519Pkcs8, fromUtf8, generateSeedHex,
  hexToBytes, isSovereignIdFor, mintBearerToken, parseBearerToken, publicKeyFromSeed, publicKeyToDidKey, signIdentityFile,
  sovereignMotebitId, stripIdentityTag, useNativeSha256, verifyBearerToken, verifyDelegationToken, verifyIdentityFile, verifyReceipt,
  withoutSignedPrefix,
} from "./protocol/index.js";
export type { Sha256HexSync, Signer, SignerFactory, Verdict, VerifySignature } from "./protocol/index.js";

// Settings: read from the environment or a config file; the error that stops a start.
export { SETTINGS } from "./settings/catalog.js";
export type { EdgeSettingsEnv, SettingName } from "./settings/catalog.js";
export { configFileKeys, readSetting } from "./settings/read.js";
export type { ConfigFile, EnvLike } from "./settings/read.js";
export { DEFAULT_OLLAMA_EMBEDDING_MODEL } from "./settings/ai.js";
export type { AiSettings } from "./settings/ai.js";
export { readHostSettings } from "./settings/host-settings.js";
export type { HostSettings } from "./settings/host-settings.js";
export type { ServerConfig } from "./settings/server-config.js";
export { StartupError } from "./settings/startup-error.js";
export { OTEL_VARIABLES, readOtelSettings } from "./settings/otel.js";
export type { OtelSettings, OtlpTarget } from "./settings/otel.js";

// Build a motebit: the ports a host fills, its tools, memory and embedders, the stores it keeps.
export { systemClock } from "./ports.js";
export type { Clock, Embedder, LlmProvider, SqlPort, SqlValue, WordTableData, WordTableSource } from "./ports.js";
export type { TelemetryPort } from "./telemetry/port.js";
export { STDIO_TRANSPORT } from "./telemetry/request-transport.js";
export { createHostMotebit } from "./host/host-motebit.js";
export type { Motebit } from "./motebit.js";
export { OWNER } from "./principal.js";
export { ToolRegistry } from "./tools/registry.js";
export type { ContentBlock, ServedPrompt, ServedResource, ServedTool, ToolContext, ToolDefinition, ToolResult } from "./tools/types.js";
export { RISK_NAMES, parseRisk, riskName } from "./policy/risk.js";
export type { RiskLevel } from "./policy/risk.js";
export { memoryBackends } from "./memory/backends.js";
export { MemoryStore } from "./memory/store.js";
export { SemanticEmbedder } from "./memory/embedder-semantic.js";
export { CombinedEmbedder } from "./memory/embedder-combined.js";
export { provideWordTable } from "./memory/word-table.js";
export { toUnitLength } from "./memory/unit-vector.js";
export type { WorkersAiBinding } from "./memory/embedder-workers-ai.js";
export type { VectorizeBinding } from "./memory/index-vectorize.js";
export { CredentialStore, notPresentedBecause } from "./credentials/credential-store.js";
export { ReceiptLedger } from "./log/receipt-ledger.js";
export { HostStop } from "./agent/turn-budget.js";

// Serve HTTP: the app, the backends behind it, authentication and its limits, the answers a host writes itself.
export { createApp } from "./server/app.js";
export { authenticate } from "./server/auth.js";
export type { AuthResult, ServerIdentity } from "./callers/signed-token.js";
export { AUTH_FAILURES_PER_SOURCE_PER_MINUTE, failedAuthBuckets, failedAuthByService, type FailedAuthLimiter } from "./server/failed-auth.js";
export { headerSource } from "./server/request-source.js";
export { RateLimiter } from "./callers/rate-limit.js";
export type { RateDecision } from "./callers/rate-limit.js";
export { BoundedCache } from "./bounded/bounded-cache.js";
export type { ServerBackend } from "./server/backend.js";
export { InProcessBackend } from "./server/in-process-backend.js";
export { discoveryOf, ObjectBackend } from "./server/object-backend.js";
export type { DiscoveryAnswer, IdentityAnswer, MotebitRpc } from "./server/object-backend.js";
export type { Discovery } from "./discovery/discover.js";
export type { LogQuery } from "./log/log-queries.js";
export type { McpCall } from "./server/mcp-request.js";
export { readBodyCapped } from "./server/body.js";
export { authRefusalResponse, jsonResponse, startupFailureResponse } from "./server/responses.js";
export { UnknownMotebitError } from "./server/unknown-motebit.js";

// Serve stdio (and motebit-local's client side): one message decoded, the session engine, JSON-RPC errors.
export { decodeMessage } from "./mcp/engine/decode.js";
export { sessionEngineFor } from "./mcp/engine/session-engine-for-host.js";
export type { Conduit } from "./mcp/engine/session-engine.js";
export { INVALID_REQUEST, rpcError } from "./mcp/jsonrpc.js";
export { SERVER_INFO } from "./mcp/server-info.js";

// OAuth: the consent page's signed approval, owner commands, the endpoints and their public base.
export { signApproval } from "./oauth/approval.js";
export type { RequestDetails } from "./oauth/approval.js";
export { redirectTarget, scopesShown, visible } from "./oauth/display.js";
export { parseScope } from "./policy/admission/oauth-scopes.js";
export { signOwnerCommand } from "./oauth/owner-command.js";
export type { OwnerCommand } from "./oauth/owner-command.js";
export { OAUTH_ENDPOINTS, OAUTH_WELL_KNOWN_SUFFIXES } from "./oauth/paths.js";
export type { OAuthUrls } from "./oauth/urls.js";
export { metadataDocumentFetcher } from "./oauth/http/metadata-document-fetch.js";
export { normalizeCode } from "./oauth/http/random-codes.js";
export { listeningPublicBase } from "./oauth/http/public-base.js";

// Fleet: the directory of hosted motebits, their names, profiles and specs, their callers and OAuth operations.
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, completeEntry, getEntry, listEntries, removeEntry, reserveName } from "./fleet/directory.js";
export type { FleetEntry, FleetPage } from "./fleet/directory.js";
export { operatorAttempt } from "./fleet/operator-attempts.js";
export { fleetMotebitUrl, isFleetName } from "./fleet/name.js";
export { provisionFleetProfile, readFleetProfile, updateFleetProfile } from "./fleet/profile.js";
export type { FleetProfile } from "./fleet/profile.js";
export { FleetSpecError, parseCreateBody, parsePatchBody } from "./fleet/spec.js";
export type { FleetSettingsPatch, FleetSpec } from "./fleet/spec.js";
export { asFleetMotebit, withFleetCallers } from "./settings/host-settings.js";
export type { FleetCallers } from "./settings/host-settings.js";
export { FLEET_PREFIX } from "./oauth/paths.js";
export { runFleetOAuthOp } from "./oauth/http/fleet-operator.js";
export type { FleetOAuthAnswer, FleetOAuthOp } from "./oauth/http/fleet-operator.js";

// Relay: the loop that takes work from a relay, its stores, its announced endpoint and self-test.
export type { RelaySettings } from "./settings/relay.js";
export { memoryRelayStore, relayLoopFor, sqlRelayStore } from "./relay/relay-loop.js";
export type { RelayLoop } from "./relay/relay-loop.js";
export { isLoopbackBind, resolveEndpoint } from "./relay/announcement.js";
export { selfTestLine, skippedSelfTest } from "./relay/self-test.js";

// Call and verify offline (motebit-local's call, verify, log and server-json commands): signed requests,
// receipts' log leaves, tree heads and proofs, signed discovery documents.
export { signedFetch } from "./client/signed-fetch.js";
export { receiptLeafHash } from "./log/receipt-leaf.js";
export { consistencyProblem, inclusionProblem, looksLikeTreeHead } from "./log/proof-checks.js";
export { treeHeadProblem } from "./log/tree-head.js";
export { verifyDetached } from "./discovery/detached-jws.js";
export { MOTEBIT_META_KEY, REGISTRY_META_KEY, SIGNATURE_META_KEY } from "./discovery/documents.js";
