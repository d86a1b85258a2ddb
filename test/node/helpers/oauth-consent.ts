// The OAuth round trip an MCP host goes through against a running host: the SDK client refused and sent to the
// consent page, the page opened as a browser opens it, the owner's approval (the test's: the CLI, `fleet approve`),
// the form posted, the code redeemed; then a client connected with the token.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { expect } from "vitest";
import { MemoryProvider, openConsent, redirectParams, submitConsent, type ConsentPage } from "../../shared/oauth-driver.js";

/**
 * `approve`: the approval the owner gives for the page's request (asserting on the page as it likes); `provider`:
 * the client's (one with a clientMetadataUrl names itself by its metadata document).
 */
export async function connectThroughConsent(
  mcpUrl: URL,
  approve: (page: ConsentPage, provider: MemoryProvider) => Promise<string>,
  provider = new MemoryProvider(),
): Promise<{ client: Client; provider: MemoryProvider }> {
  await expect(new Client({ name: "host", version: "1" }).connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  const page = await openConsent(fetch, provider.authorizationUrl!);
  const code = redirectParams(await submitConsent(fetch, page, "approve", await approve(page, provider))).get("code")!;
  await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code);
  const client = new Client({ name: "host", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return { client, provider };
}
