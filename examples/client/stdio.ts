// The owner calling their own motebit over stdio with the official MCP SDK, as an MCP host does: it launches
// `motebit-local serve --identity FILE`, runs one motebit_task and prints the result as JSON. Check the receipt with
//   npx tsx examples/client/stdio.ts ~/my-motebit/motebit.md "hello" | npx motebit-local verify -
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [identity, prompt = "hello"] = process.argv.slice(2);
if (identity === undefined) {
  console.error("usage: npx tsx examples/client/stdio.ts IDENTITY_FILE [PROMPT]");
  process.exit(2);
}
// MOTEBIT_LOCAL_BIN: another motebit-local to launch (a checkout's local-stdio/bin/motebit-local.js); default the installed one.
const bin = process.env.MOTEBIT_LOCAL_BIN;
const transport = new StdioClientTransport({
  command: bin ? process.execPath : "npx",
  args: [...(bin ? [bin] : ["motebit-local"]), "serve", "--identity", identity],
  stderr: "inherit",
});
const client = new Client({ name: "motebit-example-stdio", version: "1.0.0" });
await client.connect(transport);
const result = await client.callTool({ name: "motebit_task", arguments: { prompt } });
await client.close();
console.log(JSON.stringify(result));
