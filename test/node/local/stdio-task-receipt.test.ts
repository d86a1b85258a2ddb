// motebit_task over stdio returns an ExecutionReceipt that verifies offline, and the ledger keeps it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicKeyFromSeed, stripIdentityTag, verifyIdentityFile, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { callText, connectStdio, initMotebit, runCli, tempDir, writeToolsModule, type StdioSession } from "./helpers/local-cli.js";

describe("serve over stdio: motebit_task", () => {
  const tmp = tempDir();
  let identity: string;
  let s: StdioSession;

  beforeAll(async () => {
    identity = await initMotebit(tmp.dir);
    s = await connectStdio(["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--direct"]);
  });
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it("returns a receipt signed by the key beside the identity file, which verifies", async () => {
    const r = await callText(s.client, "motebit_task", { prompt: "hello there", required_capabilities: ["shout"] });
    expect(r.isError).toBe(false);
    const receipt = JSON.parse(stripIdentityTag(r.text)) as ExecutionReceipt;
    expect(receipt.status).toBe("completed");
    expect(receipt.result).toContain("HELLO THERE");
    expect(receipt.tools_used).toEqual(["shout"]);
    expect(receipt.invocation_origin).toBe("ai-loop");

    const verdict = await verifyReceipt(receipt, { checkResultHash: true });
    expect(verdict).toMatchObject({ valid: true, errors: [] });
    const seed = readFileSync(join(tmp.dir, "motebit.key"), "utf8").trim();
    expect(receipt.public_key).toBe(await publicKeyFromSeed(seed));
    const id = await verifyIdentityFile(readFileSync(identity, "utf8"));
    expect(receipt.motebit_id).toBe(id.motebit_id);

    // Tampering breaks it.
    expect((await verifyReceipt({ ...receipt, result: "something else" })).valid).toBe(false);
  });

  it("keeps the receipt in the ledger that `motebit-local receipts` prints", async () => {
    const r = await callText(s.client, "motebit_task", { prompt: "ledger me", required_capabilities: ["shout"] });
    const receipt = JSON.parse(stripIdentityTag(r.text)) as ExecutionReceipt;
    const out = await runCli(["receipts", "--identity", identity, "--limit", "1"]);
    expect(out.code).toBe(0);
    const rows = JSON.parse(out.stdout) as { caller: string; receipt: ExecutionReceipt }[];
    expect(rows).toHaveLength(1);
    expect(rows[0].caller).toBe("owner");
    expect(rows[0].receipt).toEqual(receipt);
    expect((await verifyReceipt(rows[0].receipt)).valid).toBe(true);
    // What receipts prints, verify reads.
    const verdict = await runCli(["verify", "-"], { stdin: out.stdout });
    expect(verdict.code, verdict.stdout + verdict.stderr).toBe(0);
    expect(JSON.parse(verdict.stdout)).toMatchObject({ valid: true, type: "receipt", motebit_id: receipt.motebit_id });
  });
});
