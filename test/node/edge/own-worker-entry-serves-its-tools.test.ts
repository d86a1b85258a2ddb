// Black box: a Worker of the user's own serves its tools through createMotebitWorker (docs/tools-and-resources.md,
// "Your own tools"): its own entry module and wrangler config, the library imported from this repository's sources.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

let edge: LocalEdge;
let dir: string | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "motebit-tools-"));
  const root = path.resolve(import.meta.dirname, "../../..");
  writeFileSync(
    path.join(dir, "worker.js"),
    `import { createMotebitWorker } from ${JSON.stringify(path.join(root, "worker/library.ts"))};
    const tools = [{
      definition: { name: "shout", description: "Upper-cases text.", risk: "R0_READ",
        inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
      handler: (args) => ({ ok: true, data: String(args.text).toUpperCase() }),
    }];
    const worker = createMotebitWorker({ tools });
    export default worker;
    export const { MotebitObject } = worker;\n`,
  );
  const config = readFileSync(path.join(root, "wrangler.toml"), "utf8").replace(/^main = .*$/m, 'main = "worker.js"');
  const configPath = path.join(dir, "wrangler.toml");
  writeFileSync(configPath, config);
  edge = await startLocalEdge({ MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: keys.auth_token }, { args: ["--config", configPath] });
}, 90_000);

afterAll(async () => {
  try {
    await edge?.stop();
  } finally {
    // After the edge has stopped: wrangler reads the config and the module from this folder.
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

async function rpc(body: unknown, session?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json" };
  if (session) headers["Mcp-Session-Id"] = session;
  return fetch(`${edge.url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
}

it("serves the tools its entry passes to createMotebitWorker instead of the examples, through the gate and with the tag", async () => {
  const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  const session = init.headers.get("mcp-session-id")!;
  const list: any = await (await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session)).json();
  const names = list.result.tools.map((t: { name: string }) => t.name);
  expect(names).toContain("shout");
  expect(names).not.toContain("echo");
  const call: any = await (await rpc({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "shout", arguments: { text: "hi" } } }, session)).json();
  expect(call.result.content[0].text).toBe(`HI\n[motebit:${keys.server.sovereign_motebit_id.slice(0, 8)} key:${keys.server.public_key_hex.slice(0, 16)}]`);
});
