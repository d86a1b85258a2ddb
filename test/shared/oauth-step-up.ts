// Step-up (#41 item 1, MCP 2025-11-25 "step-up authorization") with the real MCP SDK clients, on any host: a client
// granted motebit:read only calls motebit_task, gets 403 insufficient_scope, goes back through consent for the wider
// grant (its own doing: the SDK re-authorizes with the challenge's scope), the owner approves, and the call runs.
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError as UnauthorizedV1 } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { MemoryProvider, openConsent, redirectParams, submitConsent, type ConsentPage, type FetchFn } from "./oauth-driver.js";

interface SdkClient {
  connect(t: never): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
interface SdkTransport {
  /** `iss`: RFC 9207's, which v2 checks (v1 takes the code alone). */
  finishAuth(code: string, iss?: string): Promise<void>;
}

export interface SdkUnderTest {
  name: string;
  client(): SdkClient;
  transport(url: URL, provider: MemoryProvider, fetchFn: FetchFn): SdkTransport;
  unauthorized: abstract new (...args: never[]) => Error;
  /**
   * v1 (1.32) refreshes when it holds a refresh token instead of re-authorizing, and a refresh cannot widen a grant
   * (RFC 6749 §6), so its step-up dead-ends (typescript-sdk#2255); v2 skips the refresh when the scope widens.
   */
  keepsRefreshToken: boolean;
}

export const SDK_V1: SdkUnderTest = {
  name: "v1",
  client: () => new ClientV1({ name: "step-up", version: "1" }) as unknown as SdkClient,
  transport: (url, provider, fetchFn) => new TransportV1(url, { authProvider: provider, fetch: fetchFn }),
  unauthorized: UnauthorizedV1,
  keepsRefreshToken: false,
};

export const SDK_V2: SdkUnderTest = {
  name: "v2",
  client: () => new ClientV2({ name: "step-up", version: "1" }) as unknown as SdkClient,
  transport: (url, provider, fetchFn) => new TransportV2(url, { authProvider: provider, fetch: fetchFn }),
  unauthorized: UnauthorizedV2,
  keepsRefreshToken: true,
};

/** A provider that keeps no refresh token (see keepsRefreshToken). */
class NoRefreshProvider extends MemoryProvider {
  override saveTokens(t: OAuthTokens) {
    const { refresh_token: _dropped, ...rest } = t;
    this.saved = rest;
  }
}

/** The owner's approval for a consent page: how a host's tests give it (the CLI, `fleet approve`, signApproval). */
export type Approve = (page: ConsentPage) => Promise<string>;

async function consentAndCode(fetchFn: FetchFn, authorizationUrl: URL, approve: Approve, o: { origin?: null } = {}) {
  const page = await openConsent(fetchFn, authorizationUrl);
  expect(page.status).toBe(200);
  const back = redirectParams(await submitConsent(fetchFn, page, "approve", await approve(page), o));
  return { page, code: back.get("code")!, iss: back.get("iss")! };
}

/** The whole step-up; `o.origin: null` posts the consent form as a browser does without an Origin header. */
export async function stepUpFromRead(sdk: SdkUnderTest, fetchFn: FetchFn, mcpUrl: URL, approve: Approve, o: { origin?: null } = {}) {
  const provider = sdk.keepsRefreshToken ? new MemoryProvider() : new NoRefreshProvider();
  await expect(sdk.client().connect(sdk.transport(mcpUrl, provider, fetchFn) as never)).rejects.toBeInstanceOf(sdk.unauthorized);
  // The SDK asks for every scope the resource advertises; this host asks for motebit:read alone, as a narrow one would.
  const narrow = new URL(provider.authorizationUrl!);
  expect(narrow.searchParams.get("scope")).toBe("motebit:read motebit:tools motebit:task motebit:remember");
  narrow.searchParams.set("scope", "motebit:read");
  const first = await consentAndCode(fetchFn, narrow, approve, o);
  await sdk.transport(mcpUrl, provider, fetchFn).finishAuth(first.code, first.iss);
  expect(provider.saved?.scope).toBe("motebit:read");

  const transport = sdk.transport(mcpUrl, provider, fetchFn);
  const client = sdk.client();
  await client.connect(transport as never);
  const listed = (await client.listTools()).tools.map((t) => t.name);
  expect(listed).toContain("motebit_identity");
  expect(listed).not.toContain("motebit_task");

  // 403 insufficient_scope → the SDK goes back to /authorize with what it holds and what it lacks.
  provider.authorizationUrl = undefined;
  await expect(client.callTool({ name: "motebit_task", arguments: { prompt: "after step-up" } })).rejects.toBeInstanceOf(sdk.unauthorized);
  const wider = provider.authorizationUrl as URL | undefined;
  expect(wider?.searchParams.get("scope")).toBe("motebit:read motebit:task");
  const second = await consentAndCode(fetchFn, wider!, approve, o);
  expect(second.page.html).toContain("<code>motebit:task</code>");
  await transport.finishAuth(second.code, second.iss);
  expect(provider.saved?.scope).toBe("motebit:read motebit:task");

  const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "after step-up" } })) as { content: { text: string }[]; isError?: boolean };
  await client.close();
  return { result, clientId: provider.info!.client_id };
}
