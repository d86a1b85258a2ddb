// An anonymous OAuth flood from one source does not lock out anyone else (serve over http, the real CLI): 1,000
// registrations and 250 consent requests from 127.0.0.2 are met with 429 + Retry-After once its bucket is empty,
// never 503 or temporarily_unavailable, and an MCP host on 127.0.0.1 then registers, is approved and calls a tool.
// Before the limits, the flood's 1,000 registrations made every later one 503 for 24 hours.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchFrom, flood, FLOOD_SOURCE, legitimateHostConnects } from "../../shared/oauth-flood.js";
import { freePort, initMotebit, runCli, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

describe("an OAuth flood from one source", () => {
  const tmp = tempDir();
  let server: HttpServe;

  beforeAll(async () => {
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "oauth-flood"]);
    server = await startHttpServe(["--identity", identity, "--serve-port", String(await freePort())]);
  });

  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it("is answered 429 with Retry-After, and a host from another source still connects", async () => {
    const result = await flood(fetchFrom(FLOOD_SOURCE), server.url, { registrations: 1_000, authorizes: 250, concurrency: 8 });
    expect(Object.keys(result.register).map(Number).sort()).toEqual([201, 429]);
    // The bucket holds 60 and refills one a second while the flood runs.
    expect(result.register[429]).toBeGreaterThan(900);
    expect(Object.keys(result.authorize).map(Number).sort()).toEqual([200, 429]);
    expect(result.authorize[429]).toBeGreaterThan(150);
    expect(result.retryAfterOnEvery429).toBe(true);

    const text = await legitimateHostConnects(`${server.url}/mcp`, async (code) => {
      const approved = await runCli(["oauth", "approve", code, "--url", server.url, "--key", join(tmp.dir, "motebit.key"), "--trust", "verified"]);
      if (approved.code !== 0) throw new Error(approved.stderr);
      return approved.stdout.trim();
    });
    expect(text).toContain("task_id");
  }, 180_000);
});
