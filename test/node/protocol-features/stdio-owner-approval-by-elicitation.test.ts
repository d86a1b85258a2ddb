// Over stdio the owner is the approver: an approval-band call asks the owner through elicitation when the host
// supports it (accept runs it, decline refuses with the governance text). A host without elicitation keeps
// today's behaviour: the owner's call runs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalMessage } from "../../../src/policy/admission/refusals.js";
import { BIN, cleanEnv, initMotebit, REPO, tempDir } from "../local/helpers/local-cli.js";
import { protocolToolsModuleSource } from "../helpers/protocol-tools.js";

const tmp = tempDir();
let args: string[];
const clients: Client[] = [];

beforeAll(async () => {
  // A personal motebit: R2 and up need the owner's approval.
  const identity = await initMotebit(tmp.dir);
  const tools = join(tmp.dir, "tools.mjs");
  writeFileSync(tools, protocolToolsModuleSource);
  args = [BIN, "serve", "--identity", identity, "--tools", tools, "--direct"];
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  tmp.cleanup();
});

async function owner(answer?: "accept" | "decline") {
  const client = new Client({ name: "owner-host", version: "1.0.0" }, { capabilities: answer ? { elicitation: {} } : {} });
  const asked: string[] = [];
  if (answer) client.setRequestHandler(ElicitRequestSchema, async (r) => (asked.push(r.params.message), { action: answer, content: {} }));
  await client.connect(new StdioClientTransport({ command: process.execPath, args, env: cleanEnv(), cwd: REPO, stderr: "pipe" }));
  clients.push(client);
  const call = async (name: string) => {
    const r = (await client.callTool({ name, arguments: {} })) as { content: { text: string }[]; isError?: boolean };
    return { text: r.content[0].text, isError: r.isError === true };
  };
  return { call, asked };
}

describe("owner approval through elicitation (stdio)", () => {
  it("accept runs the call", async () => {
    const o = await owner("accept");
    const r = await o.call("change_settings");
    expect(r).toMatchObject({ isError: false });
    expect(r.text).toMatch(/^settings changed\n\[motebit:/);
    expect(o.asked).toEqual([`${approvalMessage("change_settings")} Run "change_settings" now?`]);
  });

  it("decline refuses with the governance text", async () => {
    const o = await owner("decline");
    expect(await o.call("change_settings")).toEqual({ isError: true, text: approvalMessage("change_settings") });
  });

  it("below the approval band nobody is asked", async () => {
    const o = await owner("decline");
    expect((await o.call("report")).isError).toBe(false);
    expect(o.asked).toEqual([]);
  });

  it("a host without elicitation keeps today's behaviour: the owner's call runs", async () => {
    const o = await owner();
    expect((await o.call("change_settings")).text).toMatch(/^settings changed/);
  });
});
