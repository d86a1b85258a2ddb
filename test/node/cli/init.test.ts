import { readFileSync, statSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createSigner, publicKeyToDidKey, verifyIdentityFile } from "../../../src/protocol/index.js";
import { runCli, tempDir, verdictOf } from "./run-cli.js";

// every test spawns the real CLI (node + tsx start-up), which is slow on a busy machine
vi.setConfig({ testTimeout: 90_000 });

describe("motebit-local init", () => {
  it("a personal identity (the default) says it serves peers no tasks; a service one does not", async () => {
    const personal = await runCli(["init", "--dir", tempDir()]);
    expect(personal.code, personal.stderr).toBe(0);
    expect(personal.stdout.split("\n")).toContain(
      "  peers          get no tasks: a personal motebit asks its owner before any motebit_task, and no one can approve over HTTP, " +
        "so a peer's is refused (read-only R0 tools still answer); to serve other agents, init --type service",
    );
    const service = await runCli(["init", "--dir", tempDir(), "--type", "service"]);
    expect(service.code, service.stderr).toBe(0);
    expect(service.stdout).not.toMatch(/^ {2}peers /m);
  });

  it("writes a 0600 seed file and a signed identity file that verify accepts", async () => {
    const dir = join(tempDir(), "new", "nested");
    const r = await runCli(["init", "--dir", dir]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const keyPath = join(dir, "motebit.key");
    const idPath = join(dir, "motebit.md");
    const seed = readFileSync(keyPath, "utf8");
    expect(seed).toMatch(/^[0-9a-f]{64}\n$/);
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    expect(r.stdout).not.toContain(seed.trim());

    const file = readFileSync(idPath, "utf8");
    const v = await verifyIdentityFile(file);
    const signer = await createSigner(seed.trim());
    expect(v).toMatchObject({ valid: true, sovereign: true, publicKeyHex: signer.publicKeyHex, errors: [] });
    expect(v.doc?.type).toBe("personal");
    expect(v.doc?.governance.max_risk_auto).toBe("R1_DRAFT");

    expect(r.stdout).toContain(v.motebit_id!);
    expect(r.stdout).toContain(publicKeyToDidKey(signer.publicKeyHex));
    expect(r.stdout).toContain(`npx motebit-local serve --identity ${idPath}`);
    expect(r.stdout).toContain(`npx wrangler secret put MOTEBIT_PRIVATE_KEY < ${keyPath}`);
    expect(r.stdout).toContain(`npx wrangler secret put MOTEBIT_IDENTITY < ${idPath}`);

    const verified = await runCli(["verify", idPath]);
    expect(verified.code).toBe(0);
    expect(verdictOf(verified)).toEqual({
      valid: true, type: "identity", signer: publicKeyToDidKey(signer.publicKeyHex), motebit_id: v.motebit_id, sovereign: true, errors: [],
    });
  });

  it("defaults to the current directory and prints ./ paths", async () => {
    const dir = tempDir();
    const r = await runCli(["init"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "motebit.md"))).toBe(true);
    expect(r.stdout).toContain("npx motebit-local serve --identity ./motebit.md");
    expect(r.stdout).toContain("npx wrangler secret put MOTEBIT_PRIVATE_KEY < ./motebit.key");
  });

  it("creates a service motebit with its name and R3 governance", async () => {
    const dir = tempDir();
    const r = await runCli(["init", "--dir", dir, "--type", "service", "--name", "web-reader"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/type +service/);
    const v = await verifyIdentityFile(readFileSync(join(dir, "motebit.md"), "utf8"));
    expect(v.doc).toMatchObject({ type: "service", service_name: "web-reader", governance: { max_risk_auto: "R3_EXECUTE", deny_above: "R3_EXECUTE" } });
  });

  it("refuses to touch an existing motebit.md or motebit.key without --force", async () => {
    const dir = tempDir();
    expect((await runCli(["init", "--dir", dir])).code).toBe(0);
    const key = readFileSync(join(dir, "motebit.key"), "utf8");
    const md = readFileSync(join(dir, "motebit.md"), "utf8");
    const r = await runCli(["init", "--dir", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("already exist");
    expect(r.stderr).toContain("--force");
    expect(readFileSync(join(dir, "motebit.key"), "utf8")).toBe(key);
    expect(readFileSync(join(dir, "motebit.md"), "utf8")).toBe(md);

    // a lone key file is protected too
    const other = tempDir();
    writeFileSync(join(other, "motebit.key"), key);
    const lone = await runCli(["init", "--dir", other]);
    expect(lone.code).toBe(1);
    expect(lone.stderr).toContain("motebit.key already exists");
    expect(existsSync(join(other, "motebit.md"))).toBe(false);
  });

  it("--force replaces both, keeping the key file 0600", async () => {
    const dir = tempDir();
    await runCli(["init", "--dir", dir]);
    const oldKey = readFileSync(join(dir, "motebit.key"), "utf8");
    const oldId = (await verifyIdentityFile(readFileSync(join(dir, "motebit.md"), "utf8"))).motebit_id;
    const r = await runCli(["init", "--dir", dir, "--force", "--type", "service"]);
    expect(r.code).toBe(0);
    const newKey = readFileSync(join(dir, "motebit.key"), "utf8");
    expect(newKey).not.toBe(oldKey);
    expect(statSync(join(dir, "motebit.key")).mode & 0o777).toBe(0o600);
    const v = await verifyIdentityFile(readFileSync(join(dir, "motebit.md"), "utf8"));
    expect(v.valid).toBe(true);
    expect(v.motebit_id).not.toBe(oldId);
    expect(v.publicKeyHex).toBe((await createSigner(newKey.trim())).publicKeyHex);
  });

  it("--print-key prints the key; a bad --type is a usage error (exit 2)", async () => {
    const dir = tempDir();
    const r = await runCli(["init", "--dir", dir, "--print-key"]);
    expect(r.stdout).toContain(readFileSync(join(dir, "motebit.key"), "utf8").trim());

    const bad = await runCli(["init", "--dir", tempDir(), "--type", "robot"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('motebit-local init: --type must be "personal" or "service", got "robot"\nRun "motebit-local init --help" for usage.\n');
  });

  it("an unknown flag is a usage error", async () => {
    const r = await runCli(["init", "--colour", "blue"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown flag --colour");
  });
});
