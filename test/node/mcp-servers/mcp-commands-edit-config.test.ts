// motebit-local mcp add|list|remove edit "mcpServers" in the config file and nothing else: other keys (and their
// order), the file's mode, a symlink; bad input changes nothing. Most cases run the command in this process (a
// spawned CLI costs seconds); the real CLI runs for what only it does (--help, "--", list's output, add → serve).
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { command as mcp } from "../../../local-stdio/src/commands/mcp.js";
import { UsageError } from "../../../local-stdio/src/flags.js";
import { CliError } from "../../../local-stdio/src/cli-error.js";
import { callText, connectStdio, runCli, tempDir } from "../local/helpers/local-cli.js";
import { STDIO_FIXTURE, TAG } from "./fixtures.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let n = 0;

/** A fresh config file with other keys, at `mode`. */
function configFile(mode = 0o640, text?: string): string {
  const path = join(tmp.dir, `config-${++n}.json`);
  writeFileSync(path, text ?? JSON.stringify({ rateLimit: 7, dataDir: "./state", knownCallers: {}, taskTimeoutMs: 5000 }, null, 2));
  chmodSync(path, mode);
  return path;
}
const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, any>;
const tempLeftovers = () => readdirSync(tmp.dir).filter((f) => f.endsWith(".tmp"));

/** `motebit-local mcp …args` in this process: its exit code, stdout and stderr, or the error it throws. */
async function runMcp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((stdout += String(c)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((c) => ((stderr += String(c)), true));
  try {
    return { code: await mcp.run(args.slice(1)), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe("mcp add", () => {
  it("adds a stdio server, keeping every other key, their order and the file's mode", async () => {
    const path = configFile(0o640);
    // The real CLI: a --help after "--" belongs to the server's command line, not to motebit-local.
    const r = await runCli(["mcp", "add", "fx", "--config", path, "--env", "A=1=2", "--tool-risk", "wipe=R4_MONEY", "--", process.execPath, STDIO_FIXTURE, "--help"]);
    expect(r.stderr).toContain("other users can read it");
    expect(r.code).toBe(0);
    const after = read(path);
    expect(Object.keys(after)).toEqual(["rateLimit", "dataDir", "knownCallers", "taskTimeoutMs", "mcpServers"]);
    expect(after).toMatchObject({ rateLimit: 7, dataDir: "./state", knownCallers: {}, taskTimeoutMs: 5000 });
    expect(after.mcpServers).toEqual({ fx: { command: process.execPath, args: [STDIO_FIXTURE, "--help"], env: { A: "1=2" }, toolRisk: { wipe: "R4_MONEY" } } });
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(tempLeftovers()).toEqual([]);
  });

  it("adds a Streamable HTTP server with headers, beside the servers already there", async () => {
    const path = configFile(0o600);
    expect((await runMcp(["mcp", "add", "one", "--config", path, "--", "node", "one.js"])).code).toBe(0);
    const r = await runMcp(["mcp", "add", "web", "--config", path, "--url", "https://mcp.example.com/mcp", "--header", "Authorization: Bearer t:k", "--header", "X-Team:blue", "--risk", "R1_DRAFT"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(read(path).mcpServers).toEqual({
      one: { command: "node", args: ["one.js"] },
      web: { url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer t:k", "X-Team": "blue" }, risk: "R1_DRAFT" },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("creates a missing config file with mode 0600", async () => {
    const path = join(tmp.dir, "new.json");
    expect((await runMcp(["mcp", "add", "fx", "--config", path, "--", "node", "x.js"])).code).toBe(0);
    expect(read(path)).toEqual({ mcpServers: { fx: { command: "node", args: ["x.js"] } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("writes through a symlinked config file, which stays a link", async () => {
    const target = configFile(0o600);
    const link = join(tmp.dir, "link.json");
    symlinkSync(target, link);
    expect((await runMcp(["mcp", "add", "fx", "--config", link, "--", "node", "x.js"])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(target).mcpServers).toEqual({ fx: { command: "node", args: ["x.js"] } });
  });

  it("refuses bad input and leaves the file exactly as it was", async () => {
    const path = configFile();
    expect((await runMcp(["mcp", "add", "fx", "--config", path, "--", "node", "a.js"])).code).toBe(0);
    const before = readFileSync(path, "utf8");
    // UsageError: the CLI prints it with a pointer to --help and exits 2; CliError: one line, exit 1.
    const cases: [string[], typeof UsageError | typeof CliError, RegExp][] = [
      [["mcp", "add", "fx", "--config", path, "--", "node", "b.js"], CliError, /already has an MCP server "fx".*--force/],
      [["mcp", "add", "motebit", "--config", path, "--", "node"], UsageError, /reserved/],
      [["mcp", "add", "a__b", "--config", path, "--", "node"], UsageError, /single _/],
      [["mcp", "add", "x", "--config", path, "--risk", "R9", "--", "node"], CliError, /risk must be one of R0_READ/],
      [["mcp", "add", "x", "--config", path, "--url", "ftp://h/mcp"], CliError, /must be http or https/],
      [["mcp", "add", "x", "--config", path, "--url", "https://h/mcp", "--", "node"], UsageError, /either --url URL or -- COMMAND/],
      [["mcp", "add", "x", "--config", path, "--header", "NoColon", "--url", "https://h/mcp"], UsageError, /--header needs "Name: value"/],
      [["mcp", "add", "x", "--config", path, "--env", "A=1", "--url", "https://h/mcp"], UsageError, /--env applies to a stdio server/],
      [["mcp", "add", "x", "--config", path], UsageError, /say how to reach the server/],
      [["mcp", "add", "x", "--", "node"], UsageError, /--config FILE is required/],
      [["mcp", "remove", "nope", "--config", path], CliError, /has no MCP server "nope" \(it has: fx\)/],
      [["mcp", "list", "--config", path, "--force"], UsageError, /--force applies to "mcp add" only/],
      [["mcp", "frob", "--config", path], UsageError, /unknown mcp action "frob"/],
    ];
    for (const [args, kind, message] of cases) {
      const r = runMcp(args);
      await expect(r, args.join(" ")).rejects.toThrow(message);
      await expect(r, args.join(" ")).rejects.toBeInstanceOf(kind);
      expect(readFileSync(path, "utf8")).toBe(before);
    }
    expect(tempLeftovers()).toEqual([]);
  });

  it("--force replaces a server of the same name", async () => {
    const path = configFile();
    await runMcp(["mcp", "add", "fx", "--config", path, "--", "node", "a.js"]);
    expect((await runMcp(["mcp", "add", "fx", "--config", path, "--force", "--", "node", "b.js"])).code).toBe(0);
    expect(read(path).mcpServers).toEqual({ fx: { command: "node", args: ["b.js"] } });
  });

  it("does not edit a config file that serve would refuse", async () => {
    const path = configFile(0o600, '{"rateLimit": 7,');
    await expect(runMcp(["mcp", "add", "fx", "--config", path, "--", "node"])).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(path, "utf8")).toBe('{"rateLimit": 7,');
  });
});

describe("mcp remove and list", () => {
  it("remove takes one server out and keeps the rest", async () => {
    const path = configFile(0o640);
    await runMcp(["mcp", "add", "a", "--config", path, "--", "node", "a.js"]);
    await runMcp(["mcp", "add", "b", "--config", path, "--", "node", "b.js"]);
    const r = await runMcp(["mcp", "remove", "a", "--config", path]);
    expect(r.code).toBe(0);
    expect(read(path)).toMatchObject({ rateLimit: 7, dataDir: "./state", mcpServers: { b: { command: "node", args: ["b.js"] } } });
    expect(read(path).mcpServers.a).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it("list starts each server to show its status and tool count, and never prints secrets", async () => {
    const path = configFile(0o600);
    await runMcp(["mcp", "add", "fx", "--config", path, "--env", "TOKEN=hunter2", "--", process.execPath, STDIO_FIXTURE]);
    await runMcp(["mcp", "add", "gone", "--config", path, "--", join(tmp.dir, "no-such-server")]);
    const text = await runMcp(["mcp", "list", "--config", path]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^NAME +TRANSPORT +TARGET +RISK +STATUS$/m);
    expect(text.stdout).toMatch(/^fx +stdio +.*stdio-server\.mjs +R3_EXECUTE +ok, 10 tools$/m);
    expect(text.stdout).toMatch(/^gone +stdio +.*no-such-server +R3_EXECUTE +failed: cannot run .* command not found$/m);
    const json = await runMcp(["mcp", "list", "--config", path, "--json"]);
    const rows = JSON.parse(json.stdout) as Record<string, any>[];
    expect(rows[0]).toMatchObject({ name: "fx", status: "ok", tools: 10, env: ["TOKEN"] });
    expect(rows[0].toolNames).toContain("echo");
    expect(rows[1]).toMatchObject({ name: "gone", status: "failed" });
    expect(json.stdout + text.stdout).not.toContain("hunter2");
    const offline = await runMcp(["mcp", "list", "--config", path, "--offline"]);
    expect(offline.stdout).toMatch(/^fx .*not checked \(--offline\)$/m);
  });

  it("has --help (for every form: one text)", async () => {
    const r = await runCli(["mcp", "remove", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: motebit-local mcp add NAME --config FILE.*\n.*--url URL.*\n.*mcp list.*\n.*mcp remove NAME/);
  });
});

it("one command adds a server; serve over stdio shows its tools and runs them, identity-tagged", async () => {
  const path = configFile(0o600);
  expect((await runCli(["mcp", "add", "notes", "--config", path, "--", process.execPath, STDIO_FIXTURE])).code).toBe(0);
  const s = await connectStdio(["--config", path, "--data-dir", join(tmp.dir, "done-when-data")]);
  try {
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain("notes__echo");
    const r = await callText(s.client, "notes__echo", { text: "done" });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^echo: done/);
    expect(r.text).toMatch(TAG);
  } finally {
    await s.close();
  }
});
