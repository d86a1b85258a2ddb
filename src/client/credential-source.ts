// A CredentialSource for the reference motebit's MCP client (@motebit/mcp-client's McpClientAdapter): the adapter
// calls getCredential before every HTTP request and sends `Bearer <value>`, so each request gets a fresh mcp:call
// token. Its own callerPrivateKey path mints one token per connection, which servers refuse on the second request.
//   new McpClientAdapter({ name, transport: "http", url, motebit: true, credentialSource: motebitCredentialSource({ privateKey }) })
import { callerTokenMinter, type CallerKeyOptions } from "./caller-token.js";

/** The fields of the reference's CredentialRequest this source reads (it ignores toolName, scope and agentId). */
export interface CredentialRequest {
  serverUrl: string;
  toolName?: string;
  scope?: string;
  agentId?: string;
}

export interface CredentialSource {
  getCredential(request: CredentialRequest): Promise<string | null>;
}

export interface MotebitCredentialSourceOptions extends CallerKeyOptions {
  /** The server's motebit_id (the token's `sub`); default: read from the server's GET /health, once per URL. */
  target?: string;
  /** The fetch /health is read with; default the global one. */
  fetch?: typeof fetch;
}

/** The health URL beside an MCP endpoint: `…/mcp` → `…/health` (a fleet motebit's `/m/<name>/mcp` → `/m/<name>/health`). */
export function healthUrlFor(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.pathname = u.pathname.replace(/\/mcp\/?$/, "") + "/health";
  u.search = "";
  u.hash = "";
  return u.toString();
}

export function motebitCredentialSource(options: MotebitCredentialSourceOptions): CredentialSource {
  if (options.target !== undefined && (typeof options.target !== "string" || options.target === "")) {
    throw new TypeError("target, when given, must be the server's motebit_id");
  }
  const mint = callerTokenMinter(options);
  const base = options.fetch ?? fetch;
  const targets = new Map<string, Promise<string>>();
  const targetOf = (serverUrl: string): Promise<string> => {
    if (options.target !== undefined) return Promise.resolve(options.target);
    const url = healthUrlFor(serverUrl);
    let known = targets.get(url);
    if (known === undefined) {
      known = readMotebitId(base, url);
      targets.set(url, known);
      // A failed read is not remembered: the next request asks again.
      known.catch(() => targets.delete(url));
    }
    return known;
  };
  return { getCredential: async ({ serverUrl }) => mint(await targetOf(serverUrl)) };
}

async function readMotebitId(base: typeof fetch, url: string): Promise<string> {
  const res = await base(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`motebitCredentialSource: GET ${url} answered ${res.status}; pass target (the server's motebit_id) instead`);
  const body = (await res.json().catch(() => null)) as { motebit_id?: unknown } | null;
  if (typeof body?.motebit_id !== "string" || body.motebit_id === "") {
    throw new Error(`motebitCredentialSource: GET ${url} did not name a motebit_id; pass target instead`);
  }
  return body.motebit_id;
}
