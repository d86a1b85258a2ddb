// motebitCredentialSource, used the way the reference McpClientAdapter uses a credentialSource (getCredential before
// every HTTP request, sent as `Bearer <value>`): a whole session against a real host, the target read from /health
// once per URL, each request under a fresh token.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { healthUrlFor, motebitCredentialSource, type CredentialSource } from "../../../src/client/index.js";
import { parseBearerToken as parseToken } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { freePort, initMotebit, startHttpServe, tempDir, writeToolsModule, type HttpServe } from "../local/helpers/local-cli.js";

const tmp = tempDir();
let server: HttpServe;

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "credential-source-test"]);
  const config = join(tmp.dir, "motebit.json");
  const known = { [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } };
  writeFileSync(config, JSON.stringify({ knownCallers: known }));
  chmodSync(config, 0o600);
  server = await startHttpServe(["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--config", config, "--serve-port", String(await freePort())]);
});

afterAll(async () => {
  await server?.stop();
  tmp.cleanup();
});

/** A credential is `motebit:<token>`: the signed-token form of `Bearer …`. */
function parseBearerToken(credential: string) {
  expect(credential.startsWith("motebit:")).toBe(true);
  return parseToken(credential.slice("motebit:".length));
}

/** What McpClientAdapter does with a credentialSource: one getCredential per request, its value after `Bearer `. */
function adapterFetch(source: CredentialSource, serverUrl: string, sent: string[]): typeof fetch {
  return async (url, init) => {
    const credential = await source.getCredential({ serverUrl, toolName: undefined, agentId: undefined });
    const headers = new Headers(init?.headers);
    if (credential) headers.set("Authorization", `Bearer ${credential}`);
    sent.push(credential ?? "");
    return fetch(url, { ...init, headers });
  };
}

it("a session with the target read from /health once: every request under its own mcp:call token for that motebit", async () => {
  const healthReads: string[] = [];
  const countingFetch: typeof fetch = async (url, init) => {
    healthReads.push(String(url));
    return fetch(url, init);
  };
  const source = motebitCredentialSource({ privateKey: keys.known_caller.seed_hex, fetch: countingFetch });
  const url = `${server.url}/mcp`;
  const sent: string[] = [];
  const client = new Client({ name: "reference-like", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: adapterFetch(source, url, sent) }));
  try {
    const r = (await client.callTool({ name: "shout", arguments: { text: "hi" } })) as { content: { text: string }[]; isError?: boolean };
    expect(r.isError).not.toBe(true);
    expect(r.content[0].text.startsWith("HI\n[motebit:")).toBe(true);
  } finally {
    await client.close();
  }
  expect(healthReads).toEqual([`${server.url}/health`]);
  const health = (await (await fetch(`${server.url}/health`)).json()) as { motebit_id: string };
  const claims = sent.filter((c) => c !== "").map((c) => {
    const p = parseBearerToken(c);
    if (!p.ok) throw new Error(p.reason);
    return p.claims;
  });
  expect(claims.length).toBeGreaterThanOrEqual(3);
  expect(new Set(claims.map((c) => c.jti)).size).toBe(claims.length);
  for (const c of claims) expect(c).toMatchObject({ aud: "mcp:call", sub: health.motebit_id, mid: keys.known_caller.sovereign_motebit_id });
  expect(server.stderr()).not.toContain("jti_replayed");
});

it("a given target is used as is; an unreadable /health fails the request and is asked again next time", async () => {
  const fixed = motebitCredentialSource({ privateKey: keys.known_caller.seed_hex, target: "some-motebit", fetch: () => Promise.reject(new Error("no fetch")) });
  const c = parseBearerToken(await fixed.getCredential({ serverUrl: "http://x.test/mcp" }) as string);
  expect(c.ok && c.claims.sub).toBe("some-motebit");

  let calls = 0;
  const flaky = motebitCredentialSource({
    privateKey: keys.known_caller.seed_hex,
    fetch: async () => (++calls === 1 ? new Response("down", { status: 503 }) : Response.json({ status: "ok", motebit_id: "m-1" })),
  });
  await expect(flaky.getCredential({ serverUrl: "http://x.test/mcp" })).rejects.toThrow(/GET http:\/\/x.test\/health answered 503; pass target/);
  const again = parseBearerToken(await flaky.getCredential({ serverUrl: "http://x.test/mcp" }) as string);
  expect(again.ok && again.claims.sub).toBe("m-1");
  expect(calls).toBe(2);
});

it("finds /health beside the MCP endpoint, for the deployment's motebit and a fleet motebit", () => {
  expect(healthUrlFor("https://edge.example.com/mcp")).toBe("https://edge.example.com/health");
  expect(healthUrlFor("https://edge.example.com/m/alice/mcp?x=1")).toBe("https://edge.example.com/m/alice/health");
  expect(() => motebitCredentialSource({ privateKey: "zz" })).toThrow(/64 hex characters/);
});
