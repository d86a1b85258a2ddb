// The OpenTelemetry packages are optional peers of motebit-local, absent from a plain `npx motebit-local`. The real
// CLI runs under a resolver hook that finds no @opentelemetry/* package, as on such an install: with OTEL_* set it
// refuses to serve with one stderr line naming the install command at the pinned versions (exit 1, nothing on
// stdout); without OTEL_* it serves as ever, never asking for them.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, connectStdio, initMotebit, REPO, runCli, tempDir } from "./helpers/local-cli.js";

const HOOK = `import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    if (!specifier.startsWith("@opentelemetry/")) return next(specifier, context);
    const e = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    e.code = "ERR_MODULE_NOT_FOUND";
    throw e;
  },
});
`;

describe("motebit-local without its optional OpenTelemetry packages", () => {
  const tmp = tempDir();
  let identity: string;
  let withoutOtel: Record<string, string>;

  beforeAll(async () => {
    identity = await initMotebit(tmp.dir);
    const hook = join(tmp.dir, "no-otel-packages.mjs");
    writeFileSync(hook, HOOK);
    withoutOtel = cleanEnv({ NODE_OPTIONS: `--import ${pathToFileURL(hook).href}` });
  });
  afterAll(() => tmp.cleanup());

  it("refuses to serve with OTEL_* set, in one stderr line naming the install command at the pinned versions", async () => {
    const r = await runCli(["serve", "--identity", identity, "--direct", "--data-dir", join(tmp.dir, "data")], { env: { ...withoutOtel, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" }, stdin: "" });
    const peers = (JSON.parse(readFileSync(join(REPO, "local-stdio/package.json"), "utf8")) as { peerDependencies: Record<string, string> }).peerDependencies;
    const specs = Object.entries(peers).map(([name, version]) => `${name}@${version}`);
    expect(specs.length).toBeGreaterThan(0);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`npm i -g motebit-local ${specs.join(" ")}`);
    expect(lines[0]).toContain(`npx -p motebit-local ${specs.map((s) => `-p ${s}`).join(" ")} motebit-local serve`);
  });

  it("refuses a --metrics-port the same way", async () => {
    const r = await runCli(["serve", "--identity", identity, "--direct", "--data-dir", join(tmp.dir, "data"), "--metrics-port", "0"], { env: withoutOtel, stdin: "" });
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("npm i -g motebit-local @opentelemetry/");
  });

  it("serves over stdio as ever when no OTEL_* asks for them", async () => {
    const s = await connectStdio(["--identity", identity, "--direct", "--data-dir", join(tmp.dir, "data")], withoutOtel);
    try {
      const { tools } = await s.client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });
});
