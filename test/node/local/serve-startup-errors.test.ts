// Every bad input to `serve` stops it before it serves, nothing on stdout: a wrong command line exits 2 (reason + pointer to --help),
// a bad file or a busy port exits 1 with one clear line on stderr.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initMotebit, runCli, tempDir, writeToolsModule } from "./helpers/local-cli.js";

const tmp = tempDir();
let identity: string;
let tools: string;
const at = (name: string) => join(tmp.dir, name);

beforeAll(async () => {
  identity = await initMotebit(at("a"));
  await initMotebit(at("b"));
  tools = writeToolsModule(tmp.dir);
  // Tampered: one governance band raised after signing.
  mkdirSync(at("tampered"));
  copyFileSync(join(at("a"), "motebit.key"), join(at("tampered"), "motebit.key"));
  const signed = readFileSync(identity, "utf8");
  const tampered = signed.replace(`deny_above: "R4_MONEY"`, `deny_above: "R3_EXECUTE"`);
  if (tampered === signed) throw new Error("the tamper did not change the identity file");
  writeFileSync(join(at("tampered"), "motebit.md"), tampered);
  // Key mismatch: a's identity file beside b's key.
  mkdirSync(at("mismatch"));
  copyFileSync(identity, join(at("mismatch"), "motebit.md"));
  copyFileSync(join(at("b"), "motebit.key"), join(at("mismatch"), "motebit.key"));
  // No key beside the identity file.
  mkdirSync(at("nokey"));
  copyFileSync(identity, join(at("nokey"), "motebit.md"));
  writeFileSync(at("shape.mjs"), "export default { tools: [] };\n");
  writeFileSync(
    at("reserved.mjs"),
    `export default [{ definition: { name: "motebit_evil", description: "x", inputSchema: { type: "object" }, risk: "R0_READ" }, handler: () => ({ ok: true, data: 1 }) }];\n`,
  );
  writeFileSync(at("broken.mjs"), 'throw new Error("boom while loading");\n');
  writeFileSync(at("bad-config.json"), "{ not json");
  writeFileSync(at("unknown-config.json"), JSON.stringify({ authtoken: "typo" }));
  writeFileSync(at("stray-config.json"), JSON.stringify({ somethingElse: 1 }));
  // One syntax error on line 3, column 3, in each kind of tools module.
  for (const ext of ["ts", "js", "mjs"]) writeFileSync(at(`syntax.${ext}`), "export default [\n  { a: 1 },\n  ;\n];\n");
  // TypeScript that Node's type stripping cannot erase: an enum on line 2.
  writeFileSync(at("enum.ts"), "// tools\nenum Risk { Low }\nexport default [Risk.Low];\n");
});
afterAll(() => tmp.cleanup());

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A wrong command line: exit 2, the reason and the pointer to --help, nothing on stdout. */
async function expectUsageError(args: string[], pattern: RegExp) {
  const r = await runCli(["serve", ...args]);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(2);
  expect(lines[0]).toMatch(/^motebit-local serve: /);
  expect(lines[0]).toMatch(pattern);
  expect(lines[1]).toBe('Run "motebit-local serve --help" for usage.');
}

async function expectStartupError(args: string[], pattern: RegExp) {
  const r = await runCli(["serve", ...args]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^motebit-local serve: /);
  expect(lines[0]).toMatch(pattern);
}

describe.concurrent("serve start-up errors", () => {
  it("unknown flag", () => expectUsageError(["--bogus"], /unknown flag --bogus/));
  it("non-numeric port", () => expectUsageError(["--serve-port", "abc"], /--serve-port must be a whole number from 0 to 65535, got "abc"/));
  it("port out of range", () => expectUsageError(["--serve-port", "70000"], /--serve-port must be a whole number/));
  it("bad transport", () => expectUsageError(["--serve-transport", "sse"], /--serve-transport must be "stdio" or "http", got "sse"/));
  it("flag without its value", () => expectUsageError(["--identity"], /--identity needs a value/));
  it("--auth-token flag", () => expectUsageError(["--auth-token", "s3cret"], /no --auth-token flag: auth tokens come from the config file only/));
  it("--auth-token=value", () => expectUsageError(["--auth-token=s3cret"], /config file only/));
  it("missing identity file: says how to make one", () =>
    expectStartupError(["--identity", at("nowhere/motebit.md")], new RegExp(`^motebit-local serve: no identity file at ${esc(at("nowhere/motebit.md"))}: make one with \`motebit-local init --dir ${esc(at("nowhere"))}\` \\(or leave out --identity to serve with a key of its own\\)$`)));
  it("tampered identity file", async () => {
    await expectStartupError(["--identity", join(at("tampered"), "motebit.md")], /does not verify: identity file signature does not verify/);
    expect(existsSync(join(at("tampered"), ".motebit"))).toBe(false);
  });
  it("identity signed by another key", () =>
    expectStartupError(["--identity", join(at("mismatch"), "motebit.md")], /key mismatch: .* is signed by key [0-9a-f]{16}… but .*motebit\.key holds key [0-9a-f]{16}…/));
  it("identity without its key", () => expectStartupError(["--identity", join(at("nokey"), "motebit.md")], /no private key for .*: expected .*nokey\/motebit\.key/));
  it("tools module that does not exist", () =>
    expectStartupError(["--identity", identity, "--tools", at("missing.mjs")], /tools module .*missing\.mjs does not exist/));
  it("tools module with a bad shape", () =>
    expectStartupError(["--identity", identity, "--tools", at("shape.mjs")], /the default export must be an array/));
  it("tools module using a motebit_ name", () =>
    expectStartupError(["--identity", identity, "--tools", at("reserved.mjs")], /"motebit_evil".*reserved for the motebit's own tools/));
  it("tools module that throws while loading", () =>
    expectStartupError(["--identity", identity, "--tools", at("broken.mjs")], /tools module .*broken\.mjs could not be loaded: boom while loading$/));
  it("config file that is not JSON", () => expectStartupError(["--config", at("bad-config.json")], /config file .*bad-config\.json: not valid JSON/));
  it("config file with an unknown field: the near miss named, in one short line", () =>
    expectStartupError(["--config", at("unknown-config.json")], new RegExp(`^motebit-local serve: config file ${esc(at("unknown-config.json"))}: unknown field "authtoken" \\(did you mean "authToken"\\?\\)$`)));
  it("config file with an unknown field and no near miss: points at the docs", () =>
    expectStartupError(["--config", at("stray-config.json")], /: unknown field "somethingElse" \(the fields are listed in docs\/configuration\.md\)$/));
  it("tools modules with a syntax error: file:line and the reason", async () => {
    await expectStartupError(["--identity", identity, "--tools", at("syntax.ts")], new RegExp(`^motebit-local serve: tools module ${esc(at("syntax.ts"))}:3:3 has a syntax error: Expression expected$`));
    await expectStartupError(["--identity", identity, "--tools", at("syntax.js")], new RegExp(`^motebit-local serve: tools module ${esc(at("syntax.js"))}:3 has a syntax error: Unexpected token ';'$`));
    await expectStartupError(["--identity", identity, "--tools", at("syntax.mjs")], new RegExp(`^motebit-local serve: tools module ${esc(at("syntax.mjs"))}:3 has a syntax error: Unexpected token ';'$`));
  });
  it("a .ts tools module with an enum: where, and that Node strips types only", () =>
    expectStartupError(["--identity", identity, "--tools", at("enum.ts")], new RegExp(`^motebit-local serve: tools module ${esc(at("enum.ts"))}:2:1: TypeScript enum is not supported in strip-only mode \\(Node runs a \\.ts tools module by stripping its types: write it without enums, namespaces and parameter properties, or compile it to \\.js\\)$`)));
  it("http on a port already in use: says --serve-port, and has written nothing (no data dir)", async () => {
    const { createServer } = await import("node:net");
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    const port = (busy.address() as { port: number }).port;
    const fresh = await initMotebit(at("fresh"));
    try {
      await expectStartupError(
        ["--identity", fresh, "--tools", tools, "--serve-transport", "http", "--serve-port", String(port)],
        new RegExp(`^motebit-local serve: cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE, the port is taken: pick another with --serve-port N \\(0: any free port\\)$`),
      );
      expect(existsSync(join(at("fresh"), ".motebit"))).toBe(false);
    } finally {
      busy.close();
    }
  });
});
