// Black box: a fleet motebit on the real local edge as an MCP host sees it. The MCP SDK's OAuth client discovers it
// from its 401 and the RFC 8414 path for /m/<name>, registers there, and the operator approves with
// `motebit-local fleet approve` (the motebit's object signs; no key leaves the Worker). Its token is good there only.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import { runCli } from "../cli/run-cli.js";
import { connectThroughConsent } from "../helpers/oauth-consent.js";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

const FLEET_TOKEN = "fleet-oauth-operator-token";
let edge: LocalEdge;
let dir: string;
const fleet = (...args: string[]) => runCli(["fleet", ...args, "--url", edge.url, "--token-file", join(dir, "fleet.token")]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "motebit-fleet-oauth-"));
  writeFileSync(join(dir, "fleet.token"), FLEET_TOKEN + "\n");
  edge = await startLocalEdge({ MOTEBIT_FLEET_TOKEN: FLEET_TOKEN }, { probe: "preflight" });
  for (const name of ["north", "south"]) {
    const r = await fleet("create", name);
    if (r.code !== 0) throw new Error(`fleet create ${name}: ${r.stderr}`);
  }
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a fleet motebit through OAuth", () => {
  it("the SDK client discovers /m/north, the operator approves from the CLI, motebit_task runs there only", async () => {
    const { client, provider } = await connectThroughConsent(new URL(`${edge.url}/m/north/mcp`), async (page, shown) => {
      expect(shown.authorizationUrl!.href.startsWith(`${edge.url}/m/north/authorize?`)).toBe(true);
      expect(page.html).toContain("fleet approve north");
      const approved = await fleet("approve", "north", page.code, "--trust", "verified");
      expect(approved.code, approved.stderr).toBe(0);
      // The scopes it signs are shown to the operator (the SDK asked for all four: scopes_supported).
      expect(approved.stderr).toContain("motebit:remember: store and recall");
      // What it prints is what the page asks for: the approval itself, one line.
      expect(approved.stdout).toMatch(/^[^\s{]+\n$/);
      return approved.stdout;
    });
    const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "hello north" } })) as { content: { text: string }[] };
    expect((await verifyReceipt(JSON.parse(stripIdentityTag(result.content[0].text)))).valid).toBe(true);
    await client.close();

    const atSouth = await fetch(`${edge.url}/m/south/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${provider.saved!.access_token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(atSouth.status).toBe(401);
    expect(atSouth.headers.get("WWW-Authenticate")).toContain(`${edge.url}/.well-known/oauth-protected-resource/m/south/mcp`);
  }, 120_000);
});
