// A motebit as its own OAuth 2.1 authorization server (MCP authorization, 2025-11-25): dynamic registration
// (RFC 7591) or Client ID Metadata Documents, authorization code with PKCE S256 only, the resource indicator
// (RFC 8707) bound to this motebit's /mcp, rotating refresh tokens. It runs where the motebit's SQLite is (the
// Durable Object, the Node process), so single use is one conditional UPDATE and holds under concurrency.
// The owner approves at /authorize with an approval signed by the motebit's key; a client never becomes the owner.
import type { CallerTrust } from "../../principal.js";
import type { Clock, SqlPort } from "../../ports.js";
import { base64urlEncode, constantTimeEqual, fromUtf8, sha256Hex, utf8, type Signer, type VerifySignature } from "../../protocol/index.js";
import { checkApproval, requestDetails, signApproval, type RequestDetails } from "../../oauth/approval.js";
import { mintAccessToken } from "../../oauth/access-token.js";
import { checkClientMetadata, checkMetadataDocument, isMetadataDocumentUrl, matchesRedirectUri, type ClientMetadata } from "../../oauth/client-metadata.js";
import { openOwnerCommand } from "../../oauth/owner-command.js";
import { OAuthStore, ownerListing, type ClientListing, type ConsentRequest, type OwnerListing, type StoredClient } from "../../oauth/store.js";
import type { OAuthUrls } from "../../oauth/urls.js";
import { readBodyCapped } from "../body.js";
import { RateLimiter } from "../../callers/rate-limit.js";
import { ReplayStore } from "../../callers/replay-store.js";
import { jsonResponse } from "../responses.js";
import { OAUTH_MAX_BODY_BYTES } from "./body-cap.js";
import { consentHeaders, consentPage, errorPage } from "./consent-page.js";

export const REQUEST_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;
/**
 * How long after a refresh token was rotated the same token still gets the same new pair instead of revoking the
 * grant: long enough for a client's parallel refreshes and a retry after a lost answer, short against a thief.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;
const REFRESH_CONTEXT = "motebit-oauth-refresh-v1";
/** <grant id (a UUID)>.<32 random or derived bytes, base64url>: the only shape of refresh token this server issues. */
const REFRESH_TOKEN_SHAPE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{43}$/;
const MAX_DOCUMENT_BYTES = 64 * 1024;
const DOCUMENT_TIMEOUT_MS = 5_000;
/** Requests per minute (the burst too) one source may make to all OAuth endpoints together; a client's whole sign-in is a handful. */
export const OAUTH_REQUESTS_PER_SOURCE_PER_MINUTE = 60;
/** A metadata document fetched this recently is not fetched again for another /authorize. */
const DOCUMENT_FRESH_MS = 5 * 60_000;
/** How many fetch times are remembered (a fleet object or a process serves one motebit): then the memory starts over. */
const MAX_REMEMBERED_FETCHES = 1000;
/** Crockford-like, no look-alikes (0/O, 1/I/L, U): what the owner types into a terminal. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

/** Fetches a Client ID Metadata Document: the parsed JSON, or a reason it could not be had. */
export type FetchClientMetadata = (url: string) => Promise<{ ok: true; document: unknown } | { ok: false; why: string }>;

export interface AuthorizationServerOptions {
  sql: SqlPort;
  clock: Clock;
  signer: Signer;
  motebitId: string;
  verify?: VerifySignature;
  /** Default: metadataDocumentFetcher(fetch): without redirects, 5 s, 64 KiB. */
  fetchClientMetadata?: FetchClientMetadata;
}

type OAuthError = { error: string; error_description: string };
type Form = Map<string, string>;

export class AuthorizationServer {
  readonly store: OAuthStore;
  private readonly replay: ReplayStore;
  private readonly fetchDocument: FetchClientMetadata;
  private readonly perSource: RateLimiter;
  /** When each metadata document was last fetched (this process's or object's memory only). */
  private readonly fetchedAt = new Map<string, number>();

  constructor(private readonly o: AuthorizationServerOptions) {
    this.store = new OAuthStore(o.sql);
    this.store.migrate();
    this.replay = new ReplayStore(o.sql, o.clock);
    this.replay.migrate();
    this.fetchDocument = o.fetchClientMetadata ?? metadataDocumentFetcher(fetch);
    this.perSource = new RateLimiter(o.sql, o.clock, OAUTH_REQUESTS_PER_SOURCE_PER_MINUTE);
    this.perSource.migrate();
  }

  private get identity() {
    return { motebitId: this.o.motebitId, publicKeyHex: this.o.signer.publicKeyHex };
  }

  /**
   * One request to an authorization-server path below the motebit's prefix (/m/<name> for a fleet motebit), from
   * `source` (the caller's address as the host saw it, never a value the caller sent): every OAuth request takes one
   * from the source's bucket.
   */
  async handle(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    // Below the prefix the request came in under, not the issuer's path: a publicUrl may carry a path of its own.
    const path = new URL(request.url).pathname.slice(fleetName === null ? 0 : `/m/${fleetName}`.length);
    const m = request.method;
    // Its own key space in the shared bucket table: MCP callers' buckets are keyed oauth:<client_id>, static:…, …
    const gate = this.perSource.take(`oauth-source:${source}`);
    if (!gate.ok) return tooManyRequests(gate.retryAfterSeconds, path === "/authorize" && m === "GET");
    if (path === "/authorize" && m === "GET") return this.authorizeGet(request, urls, fleetName, source);
    if (path === "/authorize" && m === "POST") return this.authorizePost(request, urls, fleetName);
    if (path === "/token" && m === "POST") return this.token(request, urls);
    if (path === "/register" && m === "POST") return this.register(request, source);
    if (path.startsWith("/oauth/requests/") && m === "GET") return this.details(safeDecode(path.slice("/oauth/requests/".length)));
    if (path === "/oauth/owner" && m === "POST") return this.ownerCommand(request);
    if (["/authorize", "/token", "/register", "/oauth/owner"].includes(path)) return jsonResponse(405, { error: "method not allowed" });
    return jsonResponse(404, { error: "not found" });
  }

  // ---- registration ----

  private async register(request: Request, source: string): Promise<Response> {
    const text = await readText(request, OAUTH_MAX_BODY_BYTES);
    let body: unknown;
    try {
      body = text === null ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    const checked = checkClientMetadata(body);
    if (!checked.ok) return jsonResponse(400, { error: checked.error, error_description: checked.why });
    const now = this.o.clock.now();
    const client: StoredClient = { clientId: `mcp_${randomToken(16)}`, kind: "registered", name: checked.value.name, redirectUris: checked.value.redirectUris, createdAt: now };
    this.store.register(client, source, now);
    return jsonResponse(201, {
      client_id: client.clientId,
      client_id_issued_at: Math.floor(now / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }, { "Cache-Control": "no-store" });
  }

  /**
   * The client behind `clientId`: registered here, or its metadata document, fetched unless it was a moment ago. A
   * document client seen for the first time is stored as a registration from `source` is, under the same caps.
   */
  private async resolveClient(clientId: string, source: string): Promise<{ ok: true; client: ClientMetadata } | { ok: false; why: string }> {
    const stored = this.store.client(clientId);
    if (stored !== null && stored.kind === "registered") return { ok: true, client: stored };
    if (!isMetadataDocumentUrl(clientId)) return { ok: false, why: "this client is not registered here (register it, or use an https Client ID Metadata Document URL)" };
    const now = this.o.clock.now();
    if (stored !== null && now - (this.fetchedAt.get(clientId) ?? -Infinity) < DOCUMENT_FRESH_MS) return { ok: true, client: stored };
    const fetched = await this.fetchDocument(clientId);
    if (!fetched.ok) return { ok: false, why: `its Client ID Metadata Document could not be fetched: ${fetched.why}` };
    const checked = checkMetadataDocument(clientId, fetched.document);
    if (!checked.ok) return { ok: false, why: `its Client ID Metadata Document is not usable: ${checked.why}` };
    if (this.fetchedAt.size >= MAX_REMEMBERED_FETCHES) this.fetchedAt.clear();
    this.fetchedAt.set(clientId, now);
    const client: StoredClient = { clientId, kind: "metadata_document", ...checked.value, createdAt: stored?.createdAt ?? now };
    if (stored === null) this.store.register(client, source, now);
    else this.store.saveClient(client);
    return { ok: true, client: checked.value };
  }

  // ---- authorization ----

  private async authorizeGet(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    const q = new URL(request.url).searchParams;
    const duplicated = [...new Set([...q.keys()])].find((k) => q.getAll(k).length > 1);
    const clientId = q.get("client_id");
    const redirectUri = q.get("redirect_uri");
    if (duplicated !== undefined) return errorPage(400, "Invalid request", `The parameter ${duplicated} appears more than once.`);
    if (clientId === null || clientId === "") return errorPage(400, "Invalid request", "client_id is missing.");
    const resolved = await this.resolveClient(clientId, source);
    if (!resolved.ok) return errorPage(400, "Unknown client", `This client cannot be authorized: ${resolved.why}.`);
    // Only a registered redirect URI may receive anything, errors included (RFC 6749 §4.1.2.1).
    if (redirectUri === null || !matchesRedirectUri(resolved.client.redirectUris, redirectUri)) {
      return errorPage(400, "Redirect URI not registered", "The redirect_uri of this request is not one the client registered, so nothing is sent back to it.");
    }
    const state = q.get("state");
    const back = (e: OAuthError) => redirectWith(redirectUri, { ...e, state, iss: urls.issuer });
    if (q.get("response_type") !== "code") return back({ error: "unsupported_response_type", error_description: "only response_type=code is supported" });
    const challenge = q.get("code_challenge");
    if (q.get("code_challenge_method") !== "S256" || challenge === null || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return back({ error: "invalid_request", error_description: "PKCE with code_challenge_method=S256 and a 43-character code_challenge is required" });
    }
    const resource = q.get("resource") ?? urls.resource;
    if (resource !== urls.resource) return back({ error: "invalid_target", error_description: `this server issues tokens for ${urls.resource} only` });
    const now = this.o.clock.now();
    const consent: ConsentRequest = {
      code: requestCode(), clientId, redirectUri, codeChallenge: challenge, state, resource, csrf: randomToken(24), expiresAt: now + REQUEST_TTL_MS,
    };
    this.store.openRequest(consent, source, now);
    return this.page(consent, resolved.client.name, urls, fleetName, 200, undefined, csrfCookie(consent, urls));
  }

  private page(r: ConsentRequest, clientName: string, urls: OAuthUrls, fleetName: string | null, status: number, problem?: string, cookie: string | null = null): Response {
    const nonce = randomToken(16);
    const html = consentPage({
      clientName, clientId: r.clientId, redirectUri: r.redirectUri, motebitId: this.o.motebitId, code: r.code, csrf: r.csrf, action: urls.authorize,
      issuer: urls.issuer, fleetName, expiresInMinutes: Math.max(1, Math.ceil((r.expiresAt - this.o.clock.now()) / 60_000)), problem,
    }, nonce);
    return new Response(html, { status, headers: consentHeaders(nonce, r.redirectUri, cookie) });
  }

  private async authorizePost(request: Request, urls: OAuthUrls, fleetName: string | null): Promise<Response> {
    const form = await readForm(request);
    if (form === null) return errorPage(400, "Invalid request", "The form could not be read.");
    const code = normalizeCode(form.get("request") ?? "");
    const r = this.store.request(code);
    if (r === null) return errorPage(400, "Unknown request", "This request is unknown, was already answered, or expired; start again from the app.");
    // The form must come from the page this browser was shown: same origin, and the cookie that page set.
    const origin = request.headers.get("Origin");
    const site = request.headers.get("Sec-Fetch-Site");
    const cookie = readCookie(request.headers.get("Cookie"), csrfCookieName(r.code));
    const posted = form.get("csrf") ?? "";
    const sameOrigin = (origin === null || origin === new URL(urls.issuer).origin) && (site === null || site === "same-origin" || site === "none");
    if (!sameOrigin || cookie === null || !constantTimeEqual(posted, r.csrf) || !constantTimeEqual(cookie, r.csrf)) {
      return errorPage(403, "Refused", "This form was not sent from the consent page this browser opened. Open the link from the app again.");
    }
    const now = this.o.clock.now();
    const back = (e: OAuthError) => redirectWith(r.redirectUri, { ...e, state: r.state, iss: urls.issuer });
    if (!(now < r.expiresAt)) {
      this.store.closeRequest(r.code);
      return back({ error: "access_denied", error_description: "the request expired before the owner approved it" });
    }
    if (form.get("decision") === "deny") {
      this.store.closeRequest(r.code);
      return back({ error: "access_denied", error_description: "the owner denied the request" });
    }
    if (form.get("decision") !== "approve") return errorPage(400, "Invalid request", "Choose Approve or Deny.");
    const approval = await checkApproval(form.get("approval") ?? "", r, this.identity, now, this.o.verify);
    const client = this.store.client(r.clientId);
    if (!approval.ok) return this.page(r, client?.name ?? r.clientId, urls, fleetName, 400, `Not approved: ${approval.why}. Run the command again and paste what it prints.`);
    // Only one submission ends the request, so one approval yields one code.
    if (!this.store.closeRequest(r.code)) return errorPage(400, "Unknown request", "This request was already answered.");
    const authCode = randomToken(32);
    this.store.createGrant({
      id: crypto.randomUUID(), clientId: r.clientId, trust: approval.trust, resource: r.resource, redirectUri: r.redirectUri,
      codeChallenge: r.codeChallenge, codeHash: await sha256Hex(authCode), codeExpiresAt: now + CODE_TTL_MS, createdAt: now,
    });
    return redirectWith(r.redirectUri, { code: authCode, state: r.state, iss: urls.issuer });
  }

  /** What the approver signs: public, since it grants nothing without the owner's signature. */
  private details(code: string): Response {
    const r = this.store.request(normalizeCode(code));
    if (r === null || !(this.o.clock.now() < r.expiresAt)) return jsonResponse(404, { error: "no such pending request (it may have expired)" });
    return jsonResponse(200, this.requestDetails(r), { "Cache-Control": "no-store" });
  }

  private requestDetails(r: ConsentRequest): RequestDetails {
    return requestDetails(this.o.motebitId, r, this.store.client(r.clientId)?.name ?? r.clientId);
  }

  /** A fleet motebit's approval, made by its own object for the operator (whose token was checked by the Worker). */
  async operatorApproval(code: string, trust: CallerTrust): Promise<{ ok: true; approval: string; request: RequestDetails } | { ok: false; why: string }> {
    const r = this.store.request(normalizeCode(code));
    if (r === null || !(this.o.clock.now() < r.expiresAt)) return { ok: false, why: "no such pending request (it may have expired)" };
    const d = this.requestDetails(r);
    return { ok: true, approval: await signApproval(d, trust, this.o.signer), request: d };
  }

  listClients(): ClientListing[] {
    return this.store.listClients();
  }

  /** The owner's `list` (motebit-local oauth list, the fleet operator's): approved clients apart from the rest. */
  ownerListing(): OwnerListing {
    return ownerListing(this.store.listClients());
  }

  revokeClient(clientId: string): boolean {
    return this.store.revokeClient(clientId, this.o.clock.now());
  }

  // ---- tokens ----

  private async token(request: Request, urls: OAuthUrls): Promise<Response> {
    const form = await readForm(request);
    if (form === null) return tokenError(400, "invalid_request", "the body must be application/x-www-form-urlencoded, each parameter once, at most 16 KiB");
    // Public clients only: a secret or Basic credentials name a client this server never made.
    if (request.headers.has("Authorization") || form.has("client_secret")) return tokenError(401, "invalid_client", "this server has public clients only: send client_id, no secret");
    const clientId = form.get("client_id");
    if (clientId === undefined || clientId === "") return tokenError(401, "invalid_client", "client_id is required");
    const resource = form.get("resource");
    if (resource !== undefined && resource !== urls.resource) return tokenError(400, "invalid_target", `this server issues tokens for ${urls.resource} only`);
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") return this.redeemCode(form, clientId, urls);
    if (grantType === "refresh_token") return this.refresh(form, clientId, urls);
    return tokenError(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
  }

  private async redeemCode(form: Form, clientId: string, urls: OAuthUrls): Promise<Response> {
    const code = form.get("code");
    const verifier = form.get("code_verifier");
    if (code === undefined || verifier === undefined) return tokenError(400, "invalid_request", "code and code_verifier are required");
    const codeHash = await sha256Hex(code);
    const g = this.store.grantByCode(codeHash);
    const now = this.o.clock.now();
    if (g === null || g.revokedAt !== null || !(now < g.codeExpiresAt)) return tokenError(400, "invalid_grant", "the code is unknown, used or expired");
    if (g.clientId !== clientId) return tokenError(400, "invalid_grant", "the code was issued to another client");
    if (form.get("redirect_uri") !== g.redirectUri) return tokenError(400, "invalid_grant", "redirect_uri is not the one the code was issued for");
    if (g.resource !== urls.resource) return tokenError(400, "invalid_target", "the code was issued for another resource");
    if (!(await pkceMatches(verifier, g.codeChallenge))) return tokenError(400, "invalid_grant", "code_verifier does not match the code_challenge");
    const refresh = `${g.id}.${randomToken(32)}`;
    // The check-and-consume: of any number of redemptions of this code, one changes the row.
    if (!this.store.redeemCode(g.id, codeHash, await sha256Hex(refresh), now + REFRESH_TTL_MS)) {
      return tokenError(400, "invalid_grant", "the code is unknown, used or expired");
    }
    return this.tokens(g.id, g.clientId, g.trust, g.resource, refresh, now, now);
  }

  private async refresh(form: Form, clientId: string, urls: OAuthUrls): Promise<Response> {
    const presented = form.get("refresh_token");
    if (presented === undefined) return tokenError(400, "invalid_request", "refresh_token is required");
    // Not the shape this server issues (<grant id>.<43 base64url characters>): unknown, and nothing changes.
    const grantId = REFRESH_TOKEN_SHAPE.exec(presented)?.[1];
    const g = grantId === undefined ? null : this.store.grant(grantId);
    const now = this.o.clock.now();
    if (g === null || g.revokedAt !== null || g.refreshHash === null) return tokenError(400, "invalid_grant", "the refresh token is unknown or revoked");
    if (g.clientId !== clientId) return tokenError(400, "invalid_grant", "the refresh token was issued to another client");
    if (g.resource !== urls.resource) return tokenError(400, "invalid_target", "the refresh token was issued for another resource");
    const hash = await sha256Hex(presented);
    if (constantTimeEqual(hash, g.refreshHash)) {
      if (g.refreshExpiresAt === null || !(now < g.refreshExpiresAt)) return tokenError(400, "invalid_grant", "the refresh token expired");
      const next = await this.successor(presented);
      if (this.store.rotateRefresh(g.id, hash, await sha256Hex(next), now + REFRESH_TTL_MS, now, now - REFRESH_TTL_MS)) {
        return this.tokens(g.id, g.clientId, g.trust, g.resource, next, now, now);
      }
      // A concurrent refresh of the same token rotated it first: answered as a repeat, below.
    }
    const rotatedAt = this.store.rotatedAt(g.id, hash);
    // Never issued for this grant (a guess, junk after a readable grant id): refused, and the grant is untouched.
    if (rotatedAt === null) return tokenError(400, "invalid_grant", "the refresh token is unknown or revoked");
    const next = await this.successor(presented);
    const current = this.store.grant(g.id);
    if (now - rotatedAt <= REFRESH_REUSE_GRACE_MS && current !== null && current.revokedAt === null && current.refreshHash === (await sha256Hex(next))) {
      // The same refresh again within the window (a client's parallel refreshes, a retry after a lost answer), and
      // its successor not yet used: the same pair, since both are derived from the token and the rotation time.
      return this.tokens(g.id, g.clientId, g.trust, g.resource, next, rotatedAt, now);
    }
    // A rotated-out refresh token came back after the window, or after its successor was used: someone holds a
    // copy. The grant ends (OAuth 2.1 §4.3.1).
    this.store.revokeGrant(g.id, now);
    return tokenError(400, "invalid_grant", "the refresh token was already used; the grant is revoked");
  }

  /**
   * The refresh token that replaces `presented`: a function of it and the motebit's key (Ed25519 signatures are
   * deterministic, RFC 8032), so a repeat within the grace window gets the same one without any token kept in clear.
   */
  private async successor(presented: string): Promise<string> {
    const sig = await this.o.signer.sign(utf8(`${REFRESH_CONTEXT}.${presented}`));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(sig)));
    return `${presented.slice(0, presented.indexOf("."))}.${base64urlEncode(digest)}`;
  }

  /** The access token minted at `issuedAt` (the same token for the same grant and time) and `refresh`. */
  private async tokens(grantId: string, clientId: string, trust: CallerTrust, resource: string, refresh: string, issuedAt: number, now: number): Promise<Response> {
    const access = await mintAccessToken({ sub: this.o.motebitId, aud: resource, cid: clientId, gid: grantId, trust }, issuedAt, this.o.signer);
    const expiresIn = Math.max(1, access.expiresIn - Math.floor((now - issuedAt) / 1000));
    return jsonResponse(200, { access_token: access.token, token_type: "Bearer", expires_in: expiresIn, refresh_token: refresh }, { "Cache-Control": "no-store", Pragma: "no-cache" });
  }

  // ---- the owner's commands ----

  private async ownerCommand(request: Request): Promise<Response> {
    const text = await readText(request, OAUTH_MAX_BODY_BYTES);
    let command: unknown;
    try {
      command = text === null ? null : (JSON.parse(text) as { command?: unknown }).command;
    } catch {
      command = null;
    }
    if (typeof command !== "string") return jsonResponse(400, { error: 'the body must be {"command": "<signed command>"}' });
    const now = this.o.clock.now();
    const opened = await openOwnerCommand(command, this.identity, now, this.o.verify);
    if (!opened.ok) return jsonResponse(401, { error: `refused: ${opened.why}` });
    if (!this.replay.consume(`oauth-owner:${opened.jti}`, opened.exp)) return jsonResponse(401, { error: "refused: this command was already used" });
    if (opened.command.op === "list") return jsonResponse(200, this.ownerListing());
    const revoked = this.revokeClient(opened.command.client_id);
    return revoked ? jsonResponse(200, { revoked: opened.command.client_id }) : jsonResponse(404, { error: "no such client" });
  }
}

/** 429 with Retry-After: a page for a browser at /authorize, JSON for everything else. */
function tooManyRequests(retryAfterSeconds: number, page: boolean): Response {
  const why = `too many OAuth requests from this address; retry after ${retryAfterSeconds} s`;
  const res = page ? errorPage(429, "Too many requests", `${why}.`) : jsonResponse(429, { error: "rate_limited", error_description: why, hint: "wait Retry-After seconds, then retry" });
  res.headers.set("Retry-After", String(retryAfterSeconds));
  return res;
}

function tokenError(status: 400 | 401, error: string, description: string): Response {
  return jsonResponse(status, { error, error_description: description }, { "Cache-Control": "no-store" });
}

/** A 303 to the client's registered redirect URI with `params` added (nulls left out). */
function redirectWith(redirectUri: string, params: Record<string, string | null>): Response {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return new Response(null, { status: 303, headers: { Location: u.href, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier)));
  return constantTimeEqual(base64urlEncode(digest), challenge);
}

function randomToken(bytes: number): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(bytes)));
}

function requestCode(): string {
  const picks = crypto.getRandomValues(new Uint8Array(8));
  const chars = [...picks].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** A path segment as text; a malformed escape is simply no code. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

/** What the owner typed: any case, with or without the dash or spaces. */
export function normalizeCode(text: string): string {
  const s = text.toUpperCase().replace(/[\s-]/g, "");
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4)}` : s;
}

function csrfCookieName(code: string): string {
  return `motebit_oauth_${code.replace("-", "")}`;
}

/** Bound to this browser: SameSite=Strict, so a form posted from another site arrives without it. */
function csrfCookie(r: ConsentRequest, urls: OAuthUrls): string {
  const u = new URL(urls.authorize);
  const secure = u.protocol === "https:" ? "; Secure" : "";
  return `${csrfCookieName(r.code)}=${r.csrf}; Path=${u.pathname}; Max-Age=${REQUEST_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure}`;
}

function readCookie(header: string | null, name: string): string | null {
  if (header === null) return null;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

async function readText(request: Request, maxBytes: number): Promise<string | null> {
  const read = await readBodyCapped(request.body, maxBytes);
  if (!read.ok) return null;
  try {
    return fromUtf8(read.bytes);
  } catch {
    return null;
  }
}

/** A form body with each parameter at most once (RFC 6749 §3.1), or null. */
async function readForm(request: Request): Promise<Form | null> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  const text = await readText(request, OAUTH_MAX_BODY_BYTES);
  if (text === null) return null;
  const form: Form = new Map();
  for (const [k, v] of new URLSearchParams(text)) {
    if (form.has(k)) return null;
    form.set(k, v);
  }
  return form;
}

/**
 * Client ID Metadata Documents fetched with `fetchImpl`: no redirects, bounded in time and size. The host says
 * where a fetch may go: in Node, only to addresses that resolve public (local-stdio/src/serve/public-fetch.ts); at
 * the edge the Worker's own fetch, which Cloudflare does not let reach private addresses.
 */
export function metadataDocumentFetcher(fetchImpl: typeof fetch): FetchClientMetadata {
  return async (url) => {
    try {
      const res = await fetchImpl(url, { redirect: "manual", headers: { Accept: "application/json" }, signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS) });
      if (res.status !== 200) {
        await res.body?.cancel();
        return { ok: false, why: `HTTP ${res.status}` };
      }
      const read = await readBodyCapped(res.body, MAX_DOCUMENT_BYTES);
      if (!read.ok) return { ok: false, why: `larger than ${MAX_DOCUMENT_BYTES} bytes` };
      return { ok: true, document: JSON.parse(fromUtf8(read.bytes)) };
    } catch (e) {
      return { ok: false, why: (e as Error)?.message ?? "fetch failed" };
    }
  };
}
