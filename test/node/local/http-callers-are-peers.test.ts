// `serve --serve-transport http` runs the edge's HTTP surface on this machine: every caller is a peer, even with
// the operator's authToken or a token signed under the motebit's own key. It never sees localOnly tools or the
// owner's memories, though the owner stored them over stdio in the same data dir. Without a token: 401.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, publicKeyToDidKey, verifyIdentityFile } from "../../../src/protocol/index.js";
import { RECALL_REFUSAL } from "../../../src/mcp/synthetic/recall.js";
import { callText, connectStdio, freePort, initMotebit, runCli, startHttpServe, tempDir, writeToolsModule, type HttpServe } from "./helpers/local-cli.js";

const TOKEN = "local-http-test-token-0123456789";
const OWNER_FACT = "The owner's vault combination is 31-41-59";
const OWNER_PERSONAL = "The owner sees a therapist on Tuesdays";

describe("serve over http: every caller is a peer", () => {
  const tmp = tempDir();
  let identity: string;
  let motebitId: string;
  let port: number;
  let server: HttpServe;
  const clients: Client[] = [];

  async function connect(headers: Record<string, string> = {}, fetchFn?: typeof fetch): Promise<Client> {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers }, fetch: fetchFn });
    const client = new Client({ name: "peer-agent", version: "1.0.0" });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    // A service motebit: its governance lets verified peers write (a personal one asks its owner first).
    identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "local-http-test"]);
    motebitId = (await verifyIdentityFile(readFileSync(identity, "utf8"))).motebit_id!;
    const tools = writeToolsModule(tmp.dir);
    // The owner, over stdio, stores memories in the data dir the HTTP server will use.
    const owner = await connectStdio(["--identity", identity, "--tools", tools]);
    expect((await callText(owner.client, "motebit_remember", { content: OWNER_FACT, sensitivity: "none" })).isError).toBe(false);
    expect((await callText(owner.client, "motebit_remember", { content: OWNER_PERSONAL, sensitivity: "personal" })).isError).toBe(false);
    expect((await callText(owner.client, "motebit_recall", { query: "vault combination" })).text).toContain(OWNER_FACT);
    await owner.close();

    const config = join(tmp.dir, "motebit.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    chmodSync(config, 0o600);
    port = await freePort();
    server = await startHttpServe(["--identity", identity, "--tools", tools, "--config", config, "--serve-port", String(port)]);
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    const code = await server?.stop();
    expect(code).toBe(0);
    tmp.cleanup();
  });

  it("listens on 127.0.0.1 at the port it was given and says so on stderr", () => {
    expect(server.url).toBe(`http://127.0.0.1:${port}`);
    expect(server.stderr()).toContain("every caller is a peer");
  });

  it("answers /health without auth", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", motebit_id: motebitId });
  });

  it("refuses /mcp with no token or a wrong one: 401", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(init) });
    const none = await post({});
    expect(none.status).toBe(401);
    expect((await post({ authorization: "Bearer wrong-token" })).status).toBe(401);
    await expect(connect()).rejects.toThrow();
  });

  it("with the bearer token: tools/list has the served tool and no localOnly tool", async () => {
    const client = await connect({ Authorization: `Bearer ${TOKEN}` });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("shout");
    expect(names).toContain("motebit_task");
    expect(names).not.toContain("read_diary");
    await expect(callText(client, "read_diary", { day: "monday" })).rejects.toThrow("Unknown tool: read_diary");
  });

  it("with the bearer token: motebit_recall is refused with no memory content", async () => {
    const client = await connect({ Authorization: `Bearer ${TOKEN}` });
    const r = await callText(client, "motebit_recall", { query: "vault combination", limit: 5 });
    expect(r).toEqual({ isError: true, text: RECALL_REFUSAL });
  });

  it("even a token signed with the motebit's own key is a peer: recall refused", async () => {
    const signer = await createSigner(readFileSync(join(tmp.dir, "motebit.key"), "utf8").trim());
    const did = publicKeyToDidKey(signer.publicKeyHex);
    // A fresh single-use token on every request, as a motebit client mints them.
    const signedFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer motebit:${await mintBearerToken({ mid: motebitId, did, aud: "mcp:call", sub: motebitId }, signer)}`);
      return fetch(input, { ...init, headers });
    };
    const client = await connect({}, signedFetch);
    const r = await callText(client, "motebit_recall", { query: "vault combination", limit: 5 });
    expect(r).toEqual({ isError: true, text: RECALL_REFUSAL });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("read_diary");
  });

  it("a peer's memories stay peer-scoped, beside the owner's in the same file", async () => {
    const client = await connect({ Authorization: `Bearer ${TOKEN}` });
    const stored = await callText(client, "motebit_remember", { content: "peer note: staging is down", sensitivity: "none" });
    expect(stored.isError, stored.text).toBe(false);
    const personal = await callText(client, "motebit_remember", { content: "peer tries personal", sensitivity: "personal" });
    expect(personal.isError).toBe(true);
    const list = await runCli(["memory", "list", "--identity", identity]);
    const rows = JSON.parse(list.stdout) as { content: string; scope: string; provenance: string }[];
    expect(rows.find((r) => r.content === "peer note: staging is down")).toMatchObject({ scope: "peer:static:static", provenance: "peer_agent" });
    expect(rows.find((r) => r.content === OWNER_FACT)).toMatchObject({ scope: "owner", provenance: "owner" });
    expect(rows.some((r) => r.content === "peer tries personal")).toBe(false);
  });
});
