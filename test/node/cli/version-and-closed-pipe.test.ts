// `--version` prints the package's version; a reader that closes stdout early (`| head -1`) gets no EPIPE stack.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, REPO, runCli } from "../local/helpers/local-cli.js";

describe("motebit-local --version", () => {
  it("prints motebit-local and the package version, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, "local-stdio/package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v", "version"]) {
      const r = await runCli([flag]);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `motebit-local ${version}\n`, ""]);
    }
  });
});

describe("stdout closed by the reader", () => {
  it("exits quietly (no EPIPE stack on stderr)", async () => {
    const child = spawn(process.execPath, [BIN, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy(); // the reader is gone before the first write
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect([code, stderr]).toEqual([0, ""]);
  });
});
