// `motebit-local serve --serve-transport http` over a real socket against the shared hostile values; the audit
// rows are read from its SQLite file while it serves.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { openSqlite, type LocalSql } from "../../../local-stdio/src/sqlite-port.js";
import { describeHostileValues } from "../../shared/hostile-values.js";
import { freePort, initMotebit, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

const TOKEN = "hostile-values-test-token-0123456789";
const tmp = tempDir();
let server: HttpServe;
let db: LocalSql;

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "hostile-values"]);
  const config = join(tmp.dir, "motebit.json");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
  chmodSync(config, 0o600);
  server = await startHttpServe(["--identity", identity, "--config", config, "--serve-port", String(await freePort())]);
  db = openSqlite(join(tmp.dir, ".motebit", "motebit.sqlite"));
});

afterAll(async () => {
  db?.close();
  await server?.stop();
  tmp.cleanup();
});

describeHostileValues("Node host over HTTP", async () => ({
  fetch: (req) => fetch(new Request(req.url.replace("http://127.0.0.1", server.url), req)),
  auth: `Bearer ${TOKEN}`,
  rpcAuditRows: async () => db.all<{ tool: string; outcome: string }>("SELECT tool, outcome FROM audit_log WHERE tool LIKE 'rpc:%' ORDER BY id DESC"),
}));
