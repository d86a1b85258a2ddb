// The HTTP surface of a motebit, host-neutral: the edge Worker serves it in front of the Durable Object,
// and motebit-local serves the same app in Node (no cloudflare:* or node:* imports here).
// Order per request: settings → Origin → CORS preflight → /health, /log/* → failed-auth gate → body cap → auth → /mcp.
import { Hono, type Context } from "hono";
import type { JtiClaim, PeerPrincipal } from "../callers/signed-token.js";
import type { ServerBackend } from "./backend.js";
import type { ServerConfig } from "../settings/server-config.js";
import { declaredLengthWithin } from "./body.js";
import { corsFor, type CorsTools } from "./cors.js";
import { prepareDelete, preparePost, tooLarge, type Prepared, type McpCall } from "./mcp-request.js";
import { isAllowedOrigin } from "../settings/origin.js";
import { authRefusalResponse, jsonResponse, rpcErrorResponse, startupFailureResponse } from "./responses.js";
import { TRANSPORT_ERROR } from "../mcp/jsonrpc.js";
import { StartupError } from "../settings/startup-error.js";
import { UnknownMotebitError } from "./unknown-motebit.js";
import { echo } from "../bounded/echo.js";
import { mountOAuth, requestUrls, withResourceMetadata } from "../oauth/http/routes.js";
import { platformPublicBase, type PublicBase } from "../oauth/http/public-base.js";
import { readSetting } from "../settings/read.js";
import { DISCOVERY_DOCUMENT_PATHS, mountDiscovery } from "./discovery-routes.js";
import { tooManyFailuresResponse, type FailedAuthLimiter } from "./failed-auth.js";
import { withChallengeMetadata } from "./scope-challenge.js";
import { dpopAtResource } from "../oauth/http/dpop-resource.js";
import type { DpopAdmission } from "../oauth/http/dpop-gate.js";

export type { ServerBackend } from "./backend.js";

type AppEnv<E extends object> = {
  Bindings: E;
  Variables: { backend: ServerBackend; config: ServerConfig; auth: { principal: PeerPrincipal; jti: JtiClaim | null; dpop?: DpopAdmission } };
};

/** The transparency log's public answers, each at /log/<kind>. */
const LOG_KINDS = ["head", "inclusion", "consistency"] as const;
/** What anyone may read: no credential, no state changed (the page at / is for people, who do not need CORS). */
const PUBLIC_READS = new Set(["/health", ...LOG_KINDS.map((kind) => `/log/${kind}`), ...DISCOVERY_DOCUMENT_PATHS]);

/**
 * A GET of a public read over https passes the Origin check whatever the origin, so a verifier on another site (a
 * browser auditing the log, a directory reading cards) can read it. Over plain http it does not: there the origin
 * check is also what keeps a web page from reading a motebit on the user's own machine (or one reached by DNS
 * rebinding), and its id and tools would tell that page who the user is.
 */
function publicReadOverHttps(method: string, url: URL, mountDepth: number): boolean {
  if (url.protocol !== "https:" || (method !== "GET" && method !== "HEAD")) return false;
  return PUBLIC_READS.has(`/${url.pathname.split("/").filter(Boolean).slice(mountDepth).join("/")}`);
}

/** A startup failure is logged once per message, not once per request (bounded: a few distinct messages at most). */
const loggedStartupErrors = new Set<string>();
const MAX_LOGGED_STARTUP_ERRORS = 16;

/**
 * What a host hands the app, once, when it builds it: nothing in it is looked up per request, so a request that
 * enters the app stays in the core until it reaches the backend.
 */
export interface AppHost<E extends object> {
  /**
   * The motebit this app serves. Under a base path that names one (the fleet's /m/:name, worker/fleet-routes.ts), how
   * a request picks its motebit instead: called per request, so it should be cheap.
   */
  backend: ServerBackend | ((c: Context<AppEnv<E>>) => ServerBackend);
  /** Mounts the same routes under a prefix. */
  basePath?: string;
  /**
   * Which base URL the OAuth URLs (and so the audience of access tokens) are built on; absent, the edge's rule on
   * the env's MOTEBIT_PUBLIC_URL (public-base.ts).
   */
  publicBase?: (env: E) => PublicBase;
  /** The caller's address as the host saw it, never a value the caller chose; absent, every caller counts as one source. */
  sourceOf?: (request: Request, env: E) => string | undefined;
  /** The served tools, whose declared Mcp-Param-* headers a CORS preflight allows (absent: none declared). */
  tools?: CorsTools;
  /**
   * Counts every 401 of the auth layer against the caller's source and refuses that source 429 + Retry-After past
   * its budget (failed-auth.ts); absent, failures are not limited.
   */
  failedAuthLimiter?: FailedAuthLimiter;
}

export function createApp<E extends object = object>(o: AppHost<E>): Hono<AppEnv<E>> {
  const chosen = o.backend;
  const backendOf = typeof chosen === "function" ? chosen : () => chosen;
  const baseOf = (c: Context<AppEnv<E>>) =>
    o.publicBase !== undefined ? o.publicBase(c.env) : platformPublicBase(readSetting("publicUrl", { env: (c.env ?? {}) as Record<string, unknown> }));
  const urlsOf = (c: Context<AppEnv<E>>) => requestUrls(c.req.raw, o.basePath, baseOf(c));
  const sourceOf = (c: Context<AppEnv<E>>) => o.sourceOf?.(c.req.raw, c.env) ?? "unknown";
  const mountDepth = o.basePath === undefined ? 0 : o.basePath.split("/").filter(Boolean).length;
  // A fleet motebit's routes are the same app under /m/:name (worker/fleet-routes.ts).
  const app = o.basePath === undefined ? new Hono<AppEnv<E>>() : new Hono<AppEnv<E>>().basePath(o.basePath);

  app.onError((err) => {
    if (err instanceof StartupError) {
      if (!loggedStartupErrors.has(err.message) && loggedStartupErrors.size < MAX_LOGGED_STARTUP_ERRORS) {
        loggedStartupErrors.add(err.message);
        console.error(`motebit cannot start: ${err.message}`);
      }
      return startupFailureResponse(err.message);
    }
    if (err instanceof UnknownMotebitError) return jsonResponse(404, { error: "not found" });
    console.error("motebit: internal error", err);
    return jsonResponse(500, { error: "internal error" });
  });
  app.notFound(() => jsonResponse(404, { error: "not found" }));

  app.use("*", async (c, next) => {
    const backend = backendOf(c);
    // Read once per request: every check below uses this copy.
    const config = backend.config();
    c.set("backend", backend);
    c.set("config", config);
    const origin = c.req.header("Origin");
    const url = new URL(c.req.url);
    if (origin !== undefined && !isAllowedOrigin(origin, url.origin, config.allowedOrigins) && !publicReadOverHttps(c.req.method, url, mountDepth)) {
      return rpcErrorResponse(403, TRANSPORT_ERROR, `Forbidden: origin ${echo(origin)} is not allowed`);
    }
    await next();
  });
  app.use("*", corsFor(o.tools));

  app.get("/health", async (c) => {
    const { motebitId } = await c.get("backend").identity();
    return jsonResponse(200, { status: "ok", motebit_id: motebitId });
  });

  // The transparency log's head and proofs are public: they reveal sizes and hashes only (docs/protocol.md §10).
  for (const kind of LOG_KINDS) {
    app.get(`/log/${kind}`, async (c) => {
      return c.get("backend").handleLog({ kind, params: Object.fromEntries(new URL(c.req.url).searchParams) });
    });
  }

  // Who this motebit is (signed discovery documents, its page) is public: it is how a caller finds out how to connect.
  mountDiscovery(app, (c) => c.get("backend"), urlsOf);
  // OAuth discovery, consent and tokens are public: they are how a client gets a credential.
  mountOAuth(app, (c) => c.get("backend"), o.basePath, baseOf, sourceOf);

  // Everything below is fail-closed.
  app.use("*", async (c, next) => {
    const limiter = o.failedAuthLimiter;
    if (limiter === undefined) return next();
    // A source past its budget of failed authentications is refused before its credential is looked at.
    const source = sourceOf(c);
    const gate = await limiter.admit(source);
    if (!gate.ok) return tooManyFailuresResponse(gate.retryAfterSeconds);
    await next();
    // A nonce refusal (RFC 9449 §9) is a step of a valid DPoP exchange, not a failed credential.
    if (c.res.status === 401 && !c.res.headers.has("DPoP-Nonce")) await limiter.failed(source);
  });
  app.use("*", async (c, next) => {
    const { maxBodyBytes } = c.get("config");
    if (!declaredLengthWithin(c.req.header("Content-Length") ?? null, maxBodyBytes)) return tooLarge(maxBodyBytes);
    const result = await c.get("backend").authenticate(c.req.header("Authorization") ?? null, Date.now());
    if (!result.ok) return withResourceMetadata(authRefusalResponse(result), urlsOf(c));
    // An OAuth token is good only at the resource it was issued for (RFC 8707; MCP authorization 2025-11-25): this
    // motebit's /mcp under the base the host vouches for, whatever Host the request named.
    if (result.audience !== undefined) {
      const urls = urlsOf(c);
      if (urls === null || result.audience !== urls.resource) {
        return withResourceMetadata(authRefusalResponse({ status: 401, body: { error: "invalid oauth token", reason: "audience_mismatch" } }), urls);
      }
    }
    if (result.dpop === undefined) c.set("auth", { principal: result.principal, jti: result.jti });
    else {
      // A DPoP-bound token (or one sent as DPoP) brings its proof, checked here, before the backend is asked.
      const d = await dpopAtResource(c.req.raw, result.dpop, result.audience!, Date.now());
      if (!d.ok) return withResourceMetadata(d.response, urlsOf(c));
      c.set("auth", { principal: result.principal, jti: result.jti, dpop: d.admission });
    }
    await next();
    // A refusal decided where the state is (a revoked OAuth grant, changed fleet settings) names it too.
    if (c.res.status === 401) c.res = withResourceMetadata(c.res, urlsOf(c));
    if (c.res.status === 403) {
      const challenged = withChallengeMetadata(c.res, urlsOf(c));
      if (challenged !== c.res) {
        // Cleared first: Hono's setter copies the old response's headers (its challenge) over the new one's.
        c.res = undefined;
        c.res = challenged;
      }
    }
  });

  app.post("/mcp", async (c) => forward(c, await preparePost(c.req.raw, c.get("auth"), c.get("config").maxBodyBytes)));
  app.delete("/mcp", async (c) => forward(c, prepareDelete(c.req.raw, c.get("auth"))));
  // No server-initiated SSE stream: every response rides on its POST.
  app.all("/mcp", () => rpcErrorResponse(405, TRANSPORT_ERROR, "Method Not Allowed", { Allow: "POST, DELETE, OPTIONS" }));

  return app;
}

function forward<E extends object>(c: Context<AppEnv<E>>, prepared: Prepared<McpCall>): Promise<Response> | Response {
  return prepared.ok ? c.get("backend").handleMcp(prepared.value) : prepared.response;
}
