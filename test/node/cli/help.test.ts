import { describe, expect, it, vi } from "vitest";
import { runCli } from "./run-cli.js";

// every test spawns the real CLI (node + tsx start-up), which is slow on a busy machine
vi.setConfig({ testTimeout: 90_000 });

describe("motebit-local help and dispatch", () => {
  it("--help lists the commands on stdout", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: motebit-local <command> [options]");
    expect(r.stdout).toMatch(/\n {2}init {4}/);
    expect(r.stdout).toMatch(/\n {2}verify {2}/);
  });

  it("each command has its own --help", async () => {
    const init = await runCli(["init", "--help"]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("Usage: motebit-local init [--dir D] [--type personal|service] [--name N] [--force] [--print-key]");
    const verify = await runCli(["help", "verify"]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain("Usage: motebit-local verify FILE|- [--key HEX|did:key]");
  });

  it("an unknown command exits 2 with the usage on stderr", async () => {
    const r = await runCli(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('motebit-local: unknown command "frobnicate"');
    expect(r.stderr).toContain("Usage: motebit-local <command> [options]");
  });

  it("no command exits 2 with the usage on stderr", async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Usage: motebit-local <command> [options]");
  });
});
