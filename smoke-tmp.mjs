import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const cfg = process.argv[2];
const t = new StdioClientTransport({command: process.execPath, args:["local-stdio/bin/motebit-local.js","serve","--data-dir","/tmp/i10-smoke/data", ...(cfg?["--config",cfg]:[])], stderr:"pipe"});
const c = new Client({name:"p",version:"1"});
const t0=Date.now();
await c.connect(t);
console.log("connected in", Date.now()-t0);
await c.close();
