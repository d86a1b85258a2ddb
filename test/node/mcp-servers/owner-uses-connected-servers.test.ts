// The owner's connected MCP servers, end to end: `serve` over stdio with real servers in its config (the SDK
// fixtures over stdio and Streamable HTTP, and the registry's filesystem server), driven by the SDK's client.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callText, cleanEnv, connectStdio, tempDir, type StdioSession } from "../local/helpers/local-cli.js";
import { FILESYSTEM_SERVER, PIXEL, processGone, startHttpFixture, stdioFixture, TAG, writeConfig, type HttpFixture } from "./fixtures.js";
import { openSqlite } from "../../../local-stdio/src/sqlite-port.js";

// Says a few lines on stderr, then never answers: a server stuck behind a proxy.
const MUTE = 'for (const l of ["step 1", "step 2", "step 3", "waiting for the proxy"]) console.error(l); setInterval(() => {}, 1e9)';

describe("serve over stdio with the owner's MCP servers", () => {
  const tmp = tempDir();
  const notes = join(tmp.dir, "notes");
  const dataDir = join(tmp.dir, "data");
  let web: HttpFixture;
  let s: StdioSession;
  let listChanged = 0;
  let keepPid = 0;

  beforeAll(async () => {
    mkdirSync(notes);
    writeFileSync(join(notes, "hello.txt"), "a note from the owner");
    web = await startHttpFixture("sesame");
    const config = writeConfig(tmp.dir, {
      fx: stdioFixture({ env: { FIXTURE_GREETING: "hello" }, passEnv: ["MOTEBIT_PASSED"], toolRisk: { wipe: "R4_MONEY" } }),
      keep: stdioFixture(),
      web: { url: web.url, headers: { "x-fixture-key": "sesame" } },
      fs: { command: process.execPath, args: [FILESYSTEM_SERVER, notes], risk: "R0_READ" },
      missing: { command: join(tmp.dir, "no-such-server") },
      mute: { command: process.execPath, args: ["-e", MUTE], startupTimeoutMs: 1000 },
    });
    s = await connectStdio(
      ["--config", config, "--data-dir", dataDir],
      cleanEnv({ MOTEBIT_TEST_SECRET: "do-not-leak", MOTEBIT_PASSED: "listed", HTTPS_PROXY: "http://proxy.invalid:3128", NODE_EXTRA_CA_CERTS: "/etc/corp-ca.pem" }),
    );
    s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    // Five servers start in parallel (the filesystem server loads for seconds on a busy machine).
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await web?.stop();
    tmp.cleanup();
  });

  const toolNames = async () => (await s.client.listTools()).tools.map((t) => t.name);

  it("lists each server's tools as <server>__<tool> with the server's own descriptions and schemas", async () => {
    const listed = (await s.client.listTools()).tools;
    const names = listed.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["motebit_identity", "fx__echo", "fx__picture", "keep__pid", "web__shout", "fs__read_text_file"]));
    // The registry's filesystem server, asked directly: every tool it offers is there, as it describes it.
    const direct = new Client({ name: "direct", version: "1" });
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [FILESYSTEM_SERVER, notes], stderr: "ignore" }));
    const fsTools = (await direct.listTools()).tools;
    await direct.close();
    expect(fsTools.length).toBeGreaterThan(5);
    for (const t of fsTools) {
      const mine = listed.find((l) => l.name === `fs__${t.name}`);
      expect(mine, t.name).toBeDefined();
      expect(mine!.description).toBe(t.description);
      expect(mine!.inputSchema).toEqual(t.inputSchema);
    }
    const echo = listed.find((t) => t.name === "fx__echo")!;
    expect(echo.description).toBe("Returns the text it is given.");
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
  });

  it("reports a server that cannot start, with its name and reason, and serves everything else", async () => {
    expect(s.stderr()).toMatch(/MCP server "missing" did not start: cannot run "[^"]*no-such-server": command not found/);
    expect(s.stderr()).toContain('MCP server "mute" did not start: did not answer within 1000 ms (its last stderr lines: "step 2" | "step 3" | "waiting for the proxy")');
    const names = await toolNames();
    expect(names.some((n) => n.startsWith("missing__") || n.startsWith("mute__"))).toBe(false);
    expect((await callText(s.client, "motebit_identity")).isError).toBe(false);
  });

  it("returns each server's answer identity-tagged, over stdio and Streamable HTTP (with its headers)", async () => {
    expect(await callText(s.client, "fx__echo", { text: "hi" })).toEqual({ text: expect.stringMatching(/^echo: hi\n\[motebit:/), isError: false });
    expect((await callText(s.client, "fx__echo", { text: "hi" })).text).toMatch(TAG);
    const shout = await callText(s.client, "web__shout", { text: "quiet" });
    expect(shout.text).toMatch(/^QUIET\n\[motebit:/);
    const note = await callText(s.client, "fs__read_text_file", { path: join(notes, "hello.txt") });
    expect(note.isError).toBe(false);
    expect(note.text).toMatch(/^a note from the owner/);
    expect(note.text).toMatch(TAG);
    keepPid = Number((await callText(s.client, "keep__pid")).text.split("\n")[0]);
    expect(keepPid).toBeGreaterThan(0);
  });

  it("passes images and other content through as MCP content, the tag last", async () => {
    const r = (await s.client.callTool({ name: "fx__picture", arguments: {} })) as { content: Record<string, unknown>[] };
    expect(r.content).toHaveLength(2);
    expect(r.content[0]).toEqual({ type: "image", data: PIXEL, mimeType: "image/png" });
    expect(r.content[1]).toEqual({ type: "text", text: expect.stringMatching(/^a red pixel\n\[motebit:[0-9a-f]{8} key:[0-9a-f]{16}\]$/) });
    const only = (await s.client.callTool({ name: "fx__only_picture", arguments: {} })) as { content: Record<string, unknown>[] };
    expect(only.content[0]).toEqual({ type: "image", data: PIXEL, mimeType: "image/png" });
    expect(only.content[1]).toEqual({ type: "text", text: expect.stringMatching(/^\[motebit:[0-9a-f]{8} key:[0-9a-f]{16}\]$/) });
  });

  it("returns a server's tool error as a tagged isError result", async () => {
    const r = await callText(s.client, "fx__fail");
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^it broke\n\[motebit:/);
  });

  it("refuses a tool in the deny band before the server sees the call", async () => {
    // No identity file: a service motebit, deny above R3; the owner raised wipe to R4.
    const r = await callText(s.client, "fx__wipe");
    expect(r).toEqual({ text: "Policy denied: tool not allowed by governance policy", isError: true });
    expect((await callText(s.client, "fx__wipe_count")).text).toMatch(/^0\n/);
    const callable = (await callText(s.client, "motebit_tools")).text;
    expect(callable).toContain('"fx__echo"');
    expect(callable).not.toContain('"fx__wipe"');
    expect(callable).toMatch(/"name":"fs__read_text_file"[^}]*"risk":0,"risk_name":"R0_READ"/);
    expect(callable).toMatch(/"name":"fx__echo"[^}]*"risk":3,"risk_name":"R3_EXECUTE"/);
  });

  it("gives a server only its own env (and PATH, HOME…), never the motebit's", async () => {
    expect((await callText(s.client, "fx__env", { name: "FIXTURE_GREETING" })).text).toMatch(/^set:hello\n/);
    expect((await callText(s.client, "fx__env", { name: "MOTEBIT_TEST_SECRET" })).text).toMatch(/^unset\n/);
  });

  it("passes the proxy and CA variables through, and the names listed in passEnv", async () => {
    expect((await callText(s.client, "fx__env", { name: "HTTPS_PROXY" })).text).toMatch(/^set:http:\/\/proxy\.invalid:3128\n/);
    expect((await callText(s.client, "fx__env", { name: "NODE_EXTRA_CA_CERTS" })).text).toMatch(/^set:\/etc\/corp-ca\.pem\n/);
    expect((await callText(s.client, "fx__env", { name: "MOTEBIT_PASSED" })).text).toMatch(/^set:listed\n/);
  });

  it("audits every call like any served tool's", () => {
    const db = openSqlite(join(dataDir, "motebit.sqlite"), { readOnly: true });
    try {
      const rows = db.all<{ tool: string; caller: string; outcome: string }>("SELECT tool, caller, outcome FROM audit_log");
      expect(rows).toEqual(
        expect.arrayContaining([
          { tool: "fx__echo", caller: "owner", outcome: "allowed" },
          { tool: "web__shout", caller: "owner", outcome: "allowed" },
          { tool: "fx__fail", caller: "owner", outcome: "error" },
          { tool: "fx__wipe", caller: "owner", outcome: "denied" },
        ]),
      );
    } finally {
      db.close();
    }
  });

  it("refreshes a server's tools on its tools/list_changed and tells the owner", async () => {
    const before = listChanged;
    expect((await callText(s.client, "fx__add_tool", { name: "late" })).text).toMatch(/^added late\n/);
    await vi.waitFor(() => expect(listChanged).toBeGreaterThan(before), { timeout: 5_000 });
    expect(await toolNames()).toContain("fx__late");
    expect((await callText(s.client, "fx__late")).text).toMatch(/^hello from late\n\[motebit:/);
  });

  it("drops the tools of a server that dies, says so, and keeps serving", async () => {
    const before = listChanged;
    await callText(s.client, "fx__crash");
    await vi.waitFor(() => expect(s.stderr()).toMatch(/MCP server "fx" stopped \(its process exited; its last stderr line: "fixture: crashing on request"\); its tools are gone/), {
      timeout: 5_000,
    });
    const names = await toolNames();
    expect(names.filter((n) => n.startsWith("fx__"))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(["keep__pid", "web__shout", "fs__read_text_file"]));
    await vi.waitFor(() => expect(listChanged).toBeGreaterThan(before), { timeout: 5_000 });
    await expect(s.client.callTool({ name: "fx__echo", arguments: { text: "hi" } })).rejects.toThrow(/Unknown tool: fx__echo/);
    expect((await callText(s.client, "keep__pid")).text).toMatch(new RegExp(`^${keepPid}\\n`));
    expect((await callText(s.client, "motebit_identity")).isError).toBe(false);
  });

  it("ends its servers' processes when serve ends (stdin closed)", async () => {
    await s.close();
    expect(await processGone(keepPid)).toBe(true);
  });
});
