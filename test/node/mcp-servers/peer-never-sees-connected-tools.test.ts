// A connected server's tools are the owner's: the registry marks them localOnly, and that flag alone keeps them
// from every peer — tools/list, tools/call by name, motebit_tools and motebit_task, over the real HTTP surface too.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMcpServers } from "../../../local-stdio/src/mcp-servers/config.js";
import { McpServers } from "../../../local-stdio/src/mcp-servers/servers.js";
import { serveHttp, type HttpHost } from "../../../local-stdio/src/serve/http-host.js";
import { defaultConfig, localSettings } from "../../../local-stdio/src/config-file.js";
import { parseStaticTokens } from "../../../src/settings/static-tokens.js";
import { makeMotebit, owner, peer, type Harness } from "../helpers/motebit.js";
import { memorySql } from "../helpers/sqlite.js";
import { REPO } from "../local/helpers/local-cli.js";
import { stdioFixture } from "./fixtures.js";

describe("connected MCP servers and peers", () => {
  let h: Harness;
  let servers: McpServers;
  let http: HttpHost;
  const log: string[] = [];

  beforeAll(async () => {
    const sql = memorySql();
    h = await makeMotebit({ identity: "service", tools: [], sql });
    servers = new McpServers(h.m.registry, (l) => log.push(l));
    const configs = parseMcpServers({ fx: stdioFixture({ toolRisk: { echo: "R0_READ", wipe: "R0_READ", wipe_count: "R0_READ" } }) }, REPO, (m) => {
      throw new Error(m);
    });
    await servers.start(configs);
    const config = { ...localSettings(defaultConfig(), {}, false).server, staticTokens: parseStaticTokens({ static: "peer-secret-token" }, "test") };
    http = await serveHttp({ motebit: h.m, sql, clock: h.m.clock, config, host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await http?.close();
    await servers?.close();
  });

  it("the owner sees and calls them (they are connected)", async () => {
    const names = (await h.rpc(owner, "tools/list")).result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain("fx__echo");
    expect(await h.text(owner, "fx__echo", { text: "x" })).toMatch(/^echo: x\n/);
    expect(h.m.registry.list("owner").filter((t) => t.definition.name.startsWith("fx__")).every((t) => t.definition.localOnly === true)).toBe(true);
  });

  for (const trust of ["first_contact", "verified", "trusted"] as const) {
    it(`a ${trust} peer cannot list them or call them by name, even at R0`, async () => {
      const names = (await h.rpc(peer(trust), "tools/list")).result.tools.map((t: { name: string }) => t.name);
      expect(names.filter((n: string) => n.startsWith("fx__"))).toEqual([]);
      const r = await h.rpc(peer(trust), "tools/call", { name: "fx__echo", arguments: { text: "x" } });
      expect(r.error).toEqual({ code: -32602, message: "Unknown tool: fx__echo" });
      expect(await h.text(peer(trust), "motebit_tools")).not.toContain("fx__");
    });
  }

  it("a peer's task cannot run one either", async () => {
    const r = await h.call(peer("trusted"), "motebit_task", { prompt: "go", required_capabilities: ["fx__wipe"] });
    const receipt = JSON.parse(r.content[0].text.replace(/\n\[motebit:[^\]]*\]$/, "")) as { status: string };
    expect(receipt.status).not.toBe("completed");
    expect(await h.text(owner, "fx__wipe_count")).toMatch(/^0\n/);
  });

  it("over the real HTTP surface, an authenticated peer neither lists nor calls them", async () => {
    const client = new Client({ name: "peer", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: { Authorization: "Bearer peer-secret-token" } } }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("motebit_identity");
      expect(names.filter((n) => n.startsWith("fx__"))).toEqual([]);
      await expect(client.callTool({ name: "fx__echo", arguments: { text: "x" } })).rejects.toThrow(/Unknown tool: fx__echo/);
    } finally {
      await client.close();
    }
  });
});
