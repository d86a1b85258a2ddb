// motebit-local's real HTTP host (serveHttp: @hono/node-server on a loopback port) serving the protocol tools,
// and official SDK clients connected to it with whatever client capabilities a test needs.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp, type HttpHost } from "../../../local-stdio/src/serve/http-host.js";
import { Motebit } from "../../../src/motebit.js";
import { systemClock } from "../../../src/ports.js";
import { readServerConfig } from "../../../src/settings/server-config.js";
import { callerStanding } from "../../../src/host/caller-standing.js";
import { loadHostIdentity } from "../../../src/host/identity.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import type { ServedTool } from "../../../src/tools/types.js";
import keys from "../../fixtures/edge/keys.json";
import { protocolPrompts, protocolResources, protocolTools } from "./protocol-tools.js";
import { memorySql } from "./sqlite.js";
import type { LocalSql } from "../../../local-stdio/src/sqlite-port.js";

export interface ProtocolHost {
  motebit: Motebit;
  sql: LocalSql;
  http: HttpHost;
  connect(o?: {
    elicit?: (params: Record<string, unknown>) => Record<string, unknown>;
    sample?: (params: Record<string, unknown>) => Record<string, unknown>;
  }): Promise<Client>;
  close(): Promise<void>;
}

/**
 * `env`: more server settings (e.g. MOTEBIT_RELAY_TRUST), as the edge reads them; `extraTools`: served after the
 * protocol tools; `sql`: the database of an earlier host, to start it again (a restart); `seedHex`: another key
 * (another motebit serving the same tools, as fleet motebits do).
 */
export async function startProtocolHost(
  env: Record<string, string> = {},
  extraTools: ServedTool[] = [],
  sql: LocalSql = memorySql(),
  seedHex: string = keys.server.seed_hex,
): Promise<ProtocolHost> {
  const id = await loadHostIdentity(sql, { privateKeyHex: seedHex, identityFileText: null });
  const config = readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: keys.auth_token, MOTEBIT_RATE_LIMIT: "0", ...env } });
  const motebit = await Motebit.create({
    sql,
    clock: systemClock,
    signer: id.signer,
    motebitId: id.motebitId,
    deviceId: id.deviceId,
    tools: ToolRegistry.fromModule([...protocolTools, ...extraTools], { resources: protocolResources, prompts: protocolPrompts }),
    taskTimeoutMs: 30_000,
    // As createHostMotebit does: a stored principal's standing is re-read from these settings.
    callerStanding: callerStanding(config),
  });
  const http = await serveHttp({ motebit, sql, clock: systemClock, config, host: "127.0.0.1", port: 0 });
  const clients: Client[] = [];
  return {
    motebit,
    sql,
    http,
    async connect(o = {}) {
      const capabilities = { ...(o.elicit && { elicitation: {} }), ...(o.sample && { sampling: {} }) };
      const client = new Client({ name: "protocol-test", version: "1.0.0" }, { capabilities });
      if (o.elicit) client.setRequestHandler(ElicitRequestSchema, async (r) => o.elicit!(r.params) as never);
      if (o.sample) client.setRequestHandler(CreateMessageRequestSchema, async (r) => o.sample!(r.params) as never);
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${http.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${keys.auth_token}` } } }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await http.close();
    },
  };
}
