// The caller's side: the official MCP SDK client with signedFetch talks to a real host (motebit-local over HTTP)
// for a whole session, each request under a fresh token; the same client with one token as a fixed header is
// refused at connect() with jti_replayed, which is why the helper exists.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signedFetch } from "../../../src/client/signed-fetch.js";
import { createSigner, mintBearerToken, SIGNED_TOKEN_PREFIX, verifyIdentityFile } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { freePort, initMotebit, startHttpServe, tempDir, writeToolsModule, type HttpServe } from "../local/helpers/local-cli.js";

const tmp = tempDir();
let server: HttpServe;
let target: string;

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "signed-fetch-test"]);
  target = (await verifyIdentityFile(readFileSync(identity, "utf8"))).motebit_id!;
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

it("connects, lists and calls a tool with a fresh token per request", async () => {
  const fetch = signedFetch({ privateKey: keys.known_caller.seed_hex, target });
  const client = new Client({ name: "caller", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { fetch }));
  try {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("shout");
    const r = (await client.callTool({ name: "shout", arguments: { text: "hi" } })) as { content: { text: string }[]; isError?: boolean };
    expect(r.isError).not.toBe(true);
    expect(r.content[0].text.startsWith("HI\n[motebit:")).toBe(true);
  } finally {
    await client.close();
  }
  expect(server.stderr()).not.toContain("jti_replayed");
});

it("one minted token as a fixed header is refused at connect() (jti_replayed)", async () => {
  const signer = await createSigner(keys.known_caller.seed_hex);
  const token = await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: target }, signer);
  const client = new Client({ name: "caller", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${SIGNED_TOKEN_PREFIX}${token}` } },
  });
  await expect(client.connect(transport)).rejects.toThrow(/jti_replayed/);
});

it("refuses a malformed key or a missing target at once, before any request", () => {
  expect(() => signedFetch({ privateKey: "00", target })).toThrow(/64 hex/);
  expect(() => signedFetch({ privateKey: keys.known_caller.seed_hex, target: "" })).toThrow(/target/);
  expect(() => signedFetch({ privateKey: keys.known_caller.seed_hex, target, ttlSeconds: 301 })).toThrow(/ttlSeconds/);
});
