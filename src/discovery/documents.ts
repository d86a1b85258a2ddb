// The three discovery documents, each signed with the motebit's key (the key its receipts use):
// - the MCP Server Card (SEP-2127 draft, experimental-ext-server-card schema.ts, $schema …/v2/server-card.schema.json):
//   identity and transport only, so what the card schema has no field for rides in `_meta` under our namespace;
// - the MCP Registry's server.json (schema 2025-12-11): the registry keeps custom data only under
//   `io.modelcontextprotocol.registry/publisher-provided`, so ours goes there;
// - the A2A Agent Card (A2A 0.3): `signatures` holds a detached JWS over the card's JCS form without `signatures`.
// Every URL comes from the base the host vouches for (OAuthUrls), never from the caller's Host.
import type { OAuthUrls } from "../oauth/urls.js";
import type { Signer } from "../protocol/ed25519.js";
import { SERVER_INFO } from "../mcp/server-info.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "../mcp/protocol-versions.js";
import { STATELESS_PROTOCOL_VERSIONS } from "../mcp/stateless/revision.js";
import { signDetached, type DetachedJws } from "./detached-jws.js";
import type { PublicFacts } from "./public-facts.js";

export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json";
export const SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
export const REGISTRY_META_KEY = "io.modelcontextprotocol.registry/publisher-provided";
/** Our `_meta` namespace (reverse DNS, outside the names MCP reserves). */
export const MOTEBIT_META_KEY = "dev.motebit/motebit";
export const SIGNATURE_META_KEY = "dev.motebit/signature";
export const A2A_PROTOCOL_VERSION = "0.3.0";

/** Every MCP revision this server speaks, newest first. */
export const SERVED_REVISIONS: readonly string[] = [...STATELESS_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export interface DiscoveryDocuments {
  serverCard: Record<string, unknown>;
  serverJson: Record<string, unknown>;
  agentCard: Record<string, unknown>;
}

/** Where a caller finds each thing, all on the trusted base. */
export function discoveryUrls(urls: OAuthUrls) {
  return {
    page: `${urls.issuer}/`,
    mcp: urls.resource,
    serverCard: `${urls.resource}/server-card`,
    agentCard: `${urls.issuer}/.well-known/agent-card.json`,
    logHead: `${urls.issuer}/log/head`,
  };
}

/** What a caller needs to connect, as our `_meta` entry (identical in the two MCP documents). */
function motebitMeta(f: PublicFacts, urls: OAuthUrls) {
  const at = discoveryUrls(urls);
  return {
    motebit_id: f.motebit_id,
    did: f.did,
    public_key: f.public_key,
    type: f.type,
    governance: f.governance,
    auth: {
      ...(f.auth.static_token && { static_token: { scheme: "Bearer", how: "a token the owner issued (MOTEBIT_AUTH_TOKENS)" } }),
      signed_token: { scheme: "Bearer", how: "a motebit signed token (docs/protocol.md) from a key this motebit knows" },
      oauth: { protected_resource_metadata: urls.resourceMetadata, authorization_server_metadata: urls.authorizationServerMetadata },
    },
    tools: f.tools,
    page: at.page,
    server_card: at.serverCard,
    agent_card: at.agentCard,
    log_head: at.logHead,
  };
}

/** Within the card schemas' 100 characters (description and title). */
const within100 = (s: string) => (s.length <= 100 ? s : `${s.slice(0, 99)}…`);

function describe(f: PublicFacts): string {
  return within100(`motebit ${f.name}: signed receipts for every task, keyed ${f.did.slice(0, 24)}…`);
}

/**
 * The reverse-DNS name the card schemas require: the trusted host's labels reversed, then the motebit's name.
 * An IP address or bracketed IPv6 host has no labels to reverse and is kept (IPv6 as "localhost", loopback only).
 */
export function registryName(urls: OAuthUrls, f: PublicFacts): string {
  const host = new URL(urls.issuer).hostname;
  const ns = host.startsWith("[") ? "localhost" : /^[\d.]+$/.test(host) ? host : host.split(".").reverse().join(".");
  return `${ns}/${f.name.replace(/[^a-zA-Z0-9._-]/g, "-")}`;
}

function remote(urls: OAuthUrls) {
  return { type: "streamable-http", url: urls.resource, supportedProtocolVersions: [...SERVED_REVISIONS] };
}

/** `signed` puts the signature where `doc` keeps it; the JWS covers `doc` without it. */
async function withSignature<T extends Record<string, unknown>>(doc: T, signer: Signer, did: string, signed: (doc: T, jws: DetachedJws) => T): Promise<T> {
  return signed(doc, await signDetached(doc, signer, did));
}

export async function serverCard(f: PublicFacts, urls: OAuthUrls, signer: Signer, name = registryName(urls, f)) {
  const card = {
    $schema: SERVER_CARD_SCHEMA,
    name,
    version: SERVER_INFO.version,
    title: within100(f.name),
    description: describe(f),
    websiteUrl: discoveryUrls(urls).page,
    remotes: [remote(urls)],
    _meta: { [MOTEBIT_META_KEY]: motebitMeta(f, urls) } as Record<string, unknown>,
  };
  return withSignature(card, signer, f.did, (c, jws) => ({ ...c, _meta: { ...c._meta, [SIGNATURE_META_KEY]: jws } }));
}

export async function registryServerJson(f: PublicFacts, urls: OAuthUrls, signer: Signer, name = registryName(urls, f)) {
  const doc = {
    $schema: SERVER_JSON_SCHEMA,
    name,
    title: within100(f.name),
    description: describe(f),
    version: SERVER_INFO.version,
    websiteUrl: discoveryUrls(urls).page,
    remotes: [{ type: "streamable-http", url: urls.resource }],
    _meta: { [REGISTRY_META_KEY]: { [MOTEBIT_META_KEY]: motebitMeta(f, urls) } as Record<string, unknown> },
  };
  return withSignature(doc, signer, f.did, (d, jws) => ({
    ...d,
    _meta: { [REGISTRY_META_KEY]: { ...d._meta[REGISTRY_META_KEY], [SIGNATURE_META_KEY]: jws } },
  }));
}

/**
 * A2A has no MCP transport: `url` is the MCP endpoint and `preferredTransport` says "MCP" (A2A 0.3 lets a card name
 * other transports), so an A2A-only client learns it cannot speak to us rather than posting A2A JSON-RPC to /mcp.
 */
export async function agentCard(f: PublicFacts, urls: OAuthUrls, signer: Signer) {
  const card = {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: f.name,
    description: describe(f),
    url: urls.resource,
    preferredTransport: "MCP",
    version: SERVER_INFO.version,
    documentationUrl: discoveryUrls(urls).page,
    capabilities: {
      streaming: false,
      pushNotifications: false,
      extensions: [{ uri: "https://modelcontextprotocol.io/specification", description: "an MCP server (Streamable HTTP)", required: true, params: { revisions: [...SERVED_REVISIONS], motebit_id: f.motebit_id, did: f.did, public_key: f.public_key, governance: f.governance } }],
    },
    securitySchemes: {
      ...(f.auth.static_token && { static_token: { type: "http", scheme: "bearer", description: "a token the owner issued" } }),
      signed_token: { type: "http", scheme: "bearer", bearerFormat: "motebit signed token", description: "signed with a key this motebit knows" },
      oauth: {
        type: "oauth2",
        oauth2MetadataUrl: urls.authorizationServerMetadata,
        flows: { authorizationCode: { authorizationUrl: urls.authorize, tokenUrl: urls.token, scopes: {} } },
      },
    },
    security: [...(f.auth.static_token ? [{ static_token: [] }] : []), { signed_token: [] }, { oauth: [] }],
    defaultInputModes: ["application/json"],
    defaultOutputModes: ["application/json"],
    skills: f.tools.map((t) => ({ id: t.name, name: t.title ?? t.name, description: t.description, tags: t.risk === null ? ["risk:undeclared"] : [`risk:${t.risk}`] })),
  };
  return withSignature(card as Record<string, unknown>, signer, f.did, (c, jws) => ({ ...c, signatures: [jws] }));
}
