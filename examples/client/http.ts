// A peer calling a motebit over Streamable HTTP with the official MCP SDK: a fresh signed token per request
// (signedFetch from motebit-edge/client), one motebit_task, its result printed as JSON. Check the receipt with
//   npx tsx examples/client/http.ts http://127.0.0.1:8787/mcp ~/my-motebit/motebit.key "hello" | npx motebit-local verify -
// The key must be one the server knows (MOTEBIT_KNOWN_CALLERS, or its own: you are then still a peer).
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { signedFetch } from "motebit-edge/client";

const [url, keyFile, prompt = "hello"] = process.argv.slice(2);
if (url === undefined || keyFile === undefined) {
  console.error("usage: npx tsx examples/client/http.ts MCP_URL KEY_FILE [PROMPT]");
  process.exit(2);
}
// A token's sub is the server's motebit_id, which its public /health tells.
const { motebit_id } = (await (await fetch(new URL("/health", url))).json()) as { motebit_id: string };
const privateKey = readFileSync(keyFile, "utf8").trim();
const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: signedFetch({ privateKey, target: motebit_id }) });
const client = new Client({ name: "motebit-example-http", version: "1.0.0" });
await client.connect(transport);
const result = await client.callTool({ name: "motebit_task", arguments: { prompt } });
await client.close();
console.log(JSON.stringify(result));
