// An anonymous OAuth flood from one source, and a legitimate MCP host connecting from another while it lasts: what
// the test (test/node/local/oauth-flood-from-one-source.test.ts) and `npm run evidence` (oauth-flood) both measure.
// In Node the flood leaves from another loopback address (127.0.0.2): the server keys on the socket's peer address.
// At the edge it names its source in CF-Connecting-IP, as Cloudflare would (wrangler dev passes the header on).
import { request as httpRequest, Agent } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { MemoryProvider, openConsent, redirectParams, REDIRECT_URI, submitConsent, type FetchFn } from "./oauth-driver.js";

export const FLOOD_SOURCE = "127.0.0.2";

export interface FloodResult {
  /** How many answers had each status, per endpoint. */
  register: Record<number, number>;
  authorize: Record<number, number>;
  /** Whether every 429 carried a Retry-After. */
  retryAfterOnEvery429: boolean;
}

/** A fetch whose requests leave from `localAddress` (and, at the edge, name it in CF-Connecting-IP). */
export function fetchFrom(localAddress: string, o: { cfConnectingIp?: boolean } = {}): FetchFn {
  const agent = new Agent({ keepAlive: true, localAddress, maxSockets: 16 });
  return (input, init = {}) =>
    new Promise((resolve, reject) => {
      const url = new URL(input);
      const headers = Object.fromEntries(new Headers(init.headers));
      if (o.cfConnectingIp) headers["cf-connecting-ip"] = localAddress;
      const body = init.body === undefined || init.body === null ? undefined : String(init.body);
      const req = httpRequest(url, { method: init.method ?? "GET", headers, agent, timeout: 30_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
          resolve(new Response(res.statusCode === 204 || res.statusCode === 304 ? null : Buffer.concat(chunks), { status: res.statusCode, headers: h }));
        });
      });
      req.on("timeout", () => req.destroy(new Error("timed out")));
      req.on("error", reject);
      req.end(body);
    });
}

async function pool(n: number, concurrency: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await one(next++);
  }));
}

/** One registration, `authorizes` GET /authorize for that client, then the other `registrations` POST /register, all from `fetchFn`. */
export async function flood(fetchFn: FetchFn, base: string, o: { registrations: number; authorizes: number; concurrency: number }): Promise<FloodResult> {
  const result: FloodResult = { register: {}, authorize: {}, retryAfterOnEvery429: true };
  const count = (into: Record<number, number>, res: Response) => {
    into[res.status] = (into[res.status] ?? 0) + 1;
    if (res.status === 429 && res.headers.get("Retry-After") === null) result.retryAfterOnEvery429 = false;
  };
  const register = () => fetchFn(`${base}/register`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "flood", redirect_uris: [REDIRECT_URI] }) });
  const first = await register();
  count(result.register, first);
  const clientId = first.status === 201 ? ((await first.json()) as { client_id: string }).client_id : "mcp_unknown";
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
  await pool(o.authorizes, o.concurrency, async () => {
    const res = await fetchFn(`${base}/authorize?${q}`);
    count(result.authorize, res);
    await res.arrayBuffer();
  });
  await pool(o.registrations - 1, o.concurrency, async () => {
    const res = await register();
    count(result.register, res);
    await res.arrayBuffer();
  });
  return result;
}

/**
 * A legitimate MCP host (the MCP SDK's client) connecting through OAuth: registration, the consent page, the
 * owner's approval (`approve` signs it), the token, and one tool call. Resolves with the tool's text.
 */
export async function legitimateHostConnects(mcpUrl: string, approve: (code: string) => Promise<string>, fetchFn: FetchFn = fetch): Promise<string> {
  const provider = new MemoryProvider();
  const transport = () => new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: fetchFn });
  try {
    await new Client({ name: "legit-host", version: "1" }).connect(transport());
    throw new Error("connected without OAuth");
  } catch (e) {
    if (!(e instanceof UnauthorizedError)) throw e;
  }
  const page = await openConsent(fetchFn, provider.authorizationUrl!);
  if (page.status !== 200) throw new Error(`consent page: HTTP ${page.status}: ${page.html.slice(0, 200)}`);
  const code = redirectParams(await submitConsent(fetchFn, page, "approve", await approve(page.code))).get("code");
  if (code === null) throw new Error("no code came back");
  await transport().finishAuth(code);
  const client = new Client({ name: "legit-host", version: "1" });
  await client.connect(transport());
  try {
    const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "after the flood" } })) as { content: { text: string }[]; isError?: boolean };
    if (result.isError) throw new Error(`motebit_task failed: ${result.content[0]?.text}`);
    return result.content[0].text;
  } finally {
    await client.close();
  }
}
