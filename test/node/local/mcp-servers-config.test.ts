// "mcpServers" in the config file: the hosts' shape (stdio and Streamable HTTP), risk defaults and overrides, and
// a clear error naming the server and field for anything else.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readConfigFile } from "../../../local-stdio/src/config-file.js";
import { tempDir } from "./helpers/local-cli.js";

describe("mcpServers in the config file", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  let n = 0;
  const config = (mcpServers: unknown, mode = 0o600) => {
    const p = join(tmp.dir, `c${++n}.json`);
    writeFileSync(p, JSON.stringify({ mcpServers }));
    chmodSync(p, mode);
    return p;
  };

  it("reads stdio and Streamable HTTP servers as MCP hosts write them, with the motebit's risk keys", () => {
    const cfg = readConfigFile(
      config({
        files: { command: "npx", args: ["-y", "some-server", "/tmp"], env: { K: "v" }, passEnv: ["GITHUB_TOKEN"] },
        local: { type: "stdio", command: "./srv", cwd: "servers", risk: "R1_DRAFT", toolRisk: { delete: "R4_MONEY", look: 0 }, startupTimeoutMs: 500 },
        remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer x" } },
        "my.server-2": { url: "http://127.0.0.1:9000/mcp" },
      }),
    );
    const [files, local, remote, plain] = cfg.mcpServers;
    expect(files).toMatchObject({ name: "files", transport: "stdio", command: "npx", args: ["-y", "some-server", "/tmp"], env: { K: "v" }, passEnv: ["GITHUB_TOKEN"], cwd: tmp.dir, risk: 3, startupTimeoutMs: 30_000 });
    expect(files.toolRisk.size).toBe(0);
    expect(local).toMatchObject({ transport: "stdio", command: "./srv", args: [], cwd: join(tmp.dir, "servers"), risk: 1, startupTimeoutMs: 500 });
    expect([...local.toolRisk]).toEqual([["delete", 4], ["look", 0]]);
    expect(remote).toMatchObject({ transport: "http", headers: { Authorization: "Bearer x" }, risk: 3 });
    expect(remote.transport === "http" && remote.url.href).toBe("https://mcp.example.com/mcp");
    expect(plain).toMatchObject({ name: "my.server-2", transport: "http" });
  });

  it("no mcpServers: none", () => {
    expect(readConfigFile(config(undefined)).mcpServers).toEqual([]);
  });

  const refusals: [string, unknown, RegExp][] = [
    ["not an object", [], /mcpServers must be an object/],
    ["a reserved name", { motebit: { command: "x" } }, /mcpServers\.motebit: server name "motebit" is reserved/],
    ["a double underscore", { a__b: { command: "x" } }, /mcpServers\.a__b: server name "a__b" must be/],
    ["a space", { "a b": { command: "x" } }, /server name "a b" must be/],
    ["neither command nor url", { s: { args: [] } }, /mcpServers\.s: needs "command" \(stdio\) or "url"/],
    ["both command and url", { s: { command: "x", url: "https://h/mcp" } }, /has both "command" \(stdio\) and "url"/],
    ["the old SSE transport", { s: { type: "sse", url: "https://h/sse" } }, /"type": "sse".*not supported/],
    ["an unknown field (a typo of risk)", { s: { command: "x", risks: "R0_READ" } }, /mcpServers\.s: unknown field "risks"/],
    ["headers on a stdio server", { s: { command: "x", headers: {} } }, /unknown field "headers"/],
    ["a bad risk", { s: { command: "x", risk: "R5" } }, /mcpServers\.s: risk must be one of R0_READ, R1_DRAFT, R2_WRITE, R3_EXECUTE, R4_MONEY/],
    ["a bad tool risk", { s: { command: "x", toolRisk: { t: "high" } } }, /mcpServers\.s: toolRisk\.t must be one of/],
    ["args not strings", { s: { command: "x", args: [1] } }, /"args" must be a list of strings/],
    ["env not strings", { s: { command: "x", env: { A: 1 } } }, /"env" must be an object of strings/],
    ["passEnv not a list of names", { s: { command: "x", passEnv: ["OK", "not-a-name"] } }, /"passEnv" must be a list of environment variable names/],
    ["a non-http url", { s: { url: "file:///etc/passwd" } }, /"url" must be http or https/],
    ["a malformed url", { s: { url: "not a url" } }, /"url" "not a url" is not a URL/],
    ["a zero timeout", { s: { command: "x", startupTimeoutMs: 0 } }, /startupTimeoutMs must be a whole number/],
  ];
  for (const [what, value, message] of refusals) {
    it(`refuses ${what}, naming the file`, () => {
      const path = config(value);
      expect(() => readConfigFile(path)).toThrow(message);
      expect(() => readConfigFile(path)).toThrow(`config file ${path}: `);
    });
  }

  it("warns when env or headers sit in a file other users can read", () => {
    const warnings: string[] = [];
    readConfigFile(config({ s: { command: "x", env: { TOKEN: "t" } } }, 0o644), (w) => warnings.push(w));
    expect(warnings).toEqual([expect.stringMatching(/holds mcpServers env or headers but other users can read it \(chmod 600/)]);
    const none: string[] = [];
    readConfigFile(config({ s: { command: "x" } }, 0o644), (w) => none.push(w));
    expect(none).toEqual([]);
  });
});
