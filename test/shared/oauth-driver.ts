// Drives the OAuth flow as the real pieces would: the MCP SDK's client holds an OAuthClientProvider (this one keeps
// everything in memory), a "browser" opens the consent page and posts the form with the cookie the page set, and
// the owner's approval is supplied by the test (the CLI, or signApproval with the motebit's key).
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

export type FetchFn = (url: string | URL, init?: RequestInit) => Promise<Response>;

export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  constructor(
    readonly clientMetadata: OAuthClientMetadata = {
      client_name: "SDK test client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
    readonly clientMetadataUrl?: string,
  ) {}
  get redirectUrl() {
    return this.clientMetadata.redirect_uris[0];
  }
  state() {
    return "state-123";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(i: OAuthClientInformationMixed) {
    this.info = i;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: OAuthTokens) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface ConsentPage {
  status: number;
  html: string;
  code: string;
  csrf: string;
  cookie: string;
  csp: string;
  action: string;
}

/** GET the authorize URL as a browser would: the page, its request code, the form's csrf and the cookie it set. */
export async function openConsent(fetchFn: FetchFn, authorizeUrl: URL | string): Promise<ConsentPage> {
  const res = await fetchFn(authorizeUrl, { redirect: "manual" });
  const html = await res.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const setCookie = res.headers.get("Set-Cookie") ?? "";
  return {
    status: res.status,
    html,
    code: field("request"),
    csrf: field("csrf"),
    cookie: setCookie.split(";")[0],
    csp: res.headers.get("Content-Security-Policy") ?? "",
    action: /<form method="post" action="([^"]*)"/.exec(html)?.[1]?.replace(/&#38;/g, "&") ?? "",
  };
}

/** POST the consent form; `o` overrides what a hostile browser would change. */
export function submitConsent(
  fetchFn: FetchFn,
  page: ConsentPage,
  decision: "approve" | "deny",
  approval: string,
  o: { cookie?: string | null; csrf?: string; origin?: string | null; code?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  const cookie = o.cookie === undefined ? page.cookie : o.cookie;
  if (cookie !== null) headers.Cookie = cookie;
  const origin = o.origin === undefined ? new URL(page.action).origin : o.origin;
  if (origin !== null) headers.Origin = origin;
  const body = new URLSearchParams({ request: o.code ?? page.code, csrf: o.csrf ?? page.csrf, decision, approval });
  return fetchFn(page.action, { method: "POST", headers, body, redirect: "manual" });
}

/** The authorization code (or error) the 303 carries back to the client. */
export function redirectParams(res: Response): URLSearchParams {
  const location = res.headers.get("Location");
  if (res.status !== 303 || location === null) throw new Error(`expected a 303 to the client, got ${res.status}: ${res.statusText}`);
  return new URL(location).searchParams;
}
