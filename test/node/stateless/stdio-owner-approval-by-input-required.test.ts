// 2026-07-28 over stdio: the owner's approval of an approval-band call is an input-required result (no request
// back to the host), with state signed by this motebit; accept runs the call, decline refuses with the governance
// text. Removed methods are -32601. The same process still serves the owner's 2025-11-25 session.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvalMessage } from "../../../src/policy/admission/refusals.js";
import { BIN, cleanEnv, initMotebit, REPO, tempDir } from "../local/helpers/local-cli.js";
import { protocolToolsModuleSource } from "../helpers/protocol-tools.js";

const tmp = tempDir();
let child: ChildProcess;
const waiting = new Map<number, (m: Record<string, unknown>) => void>();
let nextId = 1;

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir); // personal: R2 and up need the owner's approval
  const tools = join(tmp.dir, "tools.mjs");
  writeFileSync(tools, protocolToolsModuleSource);
  child = spawn(process.execPath, [BIN, "serve", "--identity", identity, "--tools", tools, "--direct"], { env: cleanEnv(), cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const m = JSON.parse(line) as Record<string, unknown>;
    waiting.get(m.id as number)?.(m);
  });
});
afterAll(async () => {
  child?.kill("SIGTERM");
  tmp.cleanup();
});

function send(method: string, params: Record<string, unknown>, meta = true): Promise<Record<string, unknown>> {
  const id = nextId++;
  const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
  child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id, method, params: meta ? { ...params, _meta } : params }) + "\n");
  return answer;
}

describe("owner approval as an input-required result (stdio, 2026-07-28)", () => {
  it("asks with a signed state; accept runs the call, decline refuses with the governance text", async () => {
    const first = (await send("tools/call", { name: "change_settings", arguments: {} })).result as Record<string, unknown>;
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({
      motebit_approval: {
        method: "elicitation/create",
        params: { message: `${approvalMessage("change_settings")} Run "change_settings" now?`, requestedSchema: { type: "object", properties: {} } },
      },
    });
    const retry = (action: string) =>
      send("tools/call", { name: "change_settings", arguments: {}, inputResponses: { motebit_approval: { action, content: {} } }, requestState: first.requestState });
    const accepted = (await retry("accept")).result as { content: { text: string }[]; resultType: string };
    expect(accepted.resultType).toBe("complete");
    expect(accepted.content[0].text).toMatch(/^settings changed\n\[motebit:/);
    const declined = (await retry("decline")).result as { content: { text: string }[]; isError: boolean };
    expect(declined).toMatchObject({ isError: true, content: [{ type: "text", text: approvalMessage("change_settings") }] });
  });

  it("removed methods are -32601; a 2025-11-25 initialize on the same process still opens the owner's session", async () => {
    expect(((await send("ping", {})).error as { code: number }).code).toBe(-32601);
    const init = (await send("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } }, false)).result as {
      protocolVersion: string;
    };
    expect(init.protocolVersion).toBe("2025-11-25");
    expect((await send("ping", {}, false)).result).toEqual({});
  });
});
