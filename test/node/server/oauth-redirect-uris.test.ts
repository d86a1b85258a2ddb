// Which redirect URIs a client may register (RFC 7591 /register and metadata documents alike), and which requested
// URIs match a registered loopback one: what real clients register works; what the URL parser would quietly fix up,
// or what no client needs, is refused.
import { describe, expect, it } from "vitest";
import { nodeApp } from "../helpers/node-app.js";

const BASE = "https://motebit.test";

async function register(app: Awaited<ReturnType<typeof nodeApp>>["app"], uri: string) {
  return app.fetch(new Request(`${BASE}/register`, { method: "POST", body: JSON.stringify({ client_name: "t", redirect_uris: [uri] }) }));
}

const REAL_CLIENTS = [
  "https://claude.ai/api/mcp/auth_callback",
  "https://chatgpt.com/connector_platform_oauth_redirect",
  "http://127.0.0.1:33418/",
  "http://localhost:6274/oauth/callback",
  "http://[::1]:8080/callback",
  "cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback",
  "vscode://vscode.github-authentication/did-authenticate",
  "com.example.app:/oauth2redirect/example-provider",
];

const REFUSED = [
  "https:evil.example/cb",
  "http:127.0.0.1/cb",
  "https:/evil.example/cb",
  "myapp:callback",
  "https://claude.ai/cb\r\n\u001b[2Khttps://claude.ai/cb",
  "https://claude.ai/c b",
  "https://claude.ai/\tcb",
  " https://claude.ai/cb",
  "https://claude.ai/\u202ebc",
  "view-source:https://claude.ai/cb",
  "chrome://settings/cb",
  "ws://127.0.0.1:9000/cb",
  "wss://evil.example/cb",
  "ftp://evil.example/cb",
  "javascript:alert(1)//",
  "data:text/html,x",
  "file:///etc/passwd",
  "https://claude.ai/cb#frag",
  "http://user@127.0.0.1:1/cb",
];

describe("redirect URIs at registration", () => {
  it.each(REAL_CLIENTS)("%s is accepted", async (uri) => {
    const { app } = await nodeApp();
    const res = await register(app, uri);
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it.each(REFUSED)("%j is invalid_redirect_uri", async (uri) => {
    const { app } = await nodeApp();
    const res = await register(app, uri);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_redirect_uri" });
  });
});

describe("a loopback redirect URI at /authorize", () => {
  async function authorize(requested: string) {
    const { app } = await nodeApp();
    const { client_id } = (await (await register(app, "http://127.0.0.1:53682/callback")).json()) as { client_id: string };
    const q = new URLSearchParams({ response_type: "code", client_id, redirect_uri: requested, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
    return app.fetch(new Request(`${BASE}/authorize?${q}`));
  }

  it("matches on any port (RFC 8252 §7.3)", async () => {
    expect((await authorize("http://127.0.0.1:40000/callback")).status).toBe(200);
  });

  it.each(["http://127.0.0.1:40000/callback#x", "http://evil@127.0.0.1:40000/callback", "http://a:b@127.0.0.1:40000/callback", "http://127.0.0.1:40000/call\tback"])(
    "%j does not match: a page, never a redirect",
    async (requested) => {
      const res = await authorize(requested);
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
      expect(await res.text()).toContain("Redirect URI not registered");
    },
  );
});
