// motebit-local oauth against the Node host's app over a real socket: approve prints an approval the consent page
// accepts; allow, list and revoke are the owner's signed commands; a key that is not the motebit's is refused.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { keyedAgent, type KeyedAgent } from "../../shared/oauth-agent.js";
import { openConsent, redirectParams, REDIRECT_URI, submitConsent } from "../../shared/oauth-driver.js";
import { runCli, tempDir } from "./run-cli.js";

vi.setConfig({ testTimeout: 90_000 });

let url = "";
let close: () => void = () => {};
const dir = tempDir();
const ownerKey = join(dir, "motebit.key");
const strangerKey = join(dir, "stranger.key");
let agent: KeyedAgent;

beforeAll(async () => {
  agent = await keyedAgent("https://agent.example/client.json");
  const { app } = await nodeApp({}, { fetchClientMetadata: async (u) => (u === agent.clientId ? { ok: true, document: agent.document } : { ok: false, why: "HTTP 404" }) });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
  writeFileSync(ownerKey, keys.server.seed_hex + "\n", { mode: 0o600 });
  writeFileSync(strangerKey, keys.stranger.seed_hex + "\n", { mode: 0o600 });
});
afterAll(() => close());

async function consent() {
  const reg = (await (await fetch(`${url}/register`, { method: "POST", body: JSON.stringify({ client_name: "CLI test", redirect_uris: [REDIRECT_URI] }) })).json()) as { client_id: string };
  const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
  return { clientId: reg.client_id, page: await openConsent(fetch, `${url}/authorize?${q}`) };
}

describe("motebit-local oauth", () => {
  it("approve prints an approval the page takes; list shows the client; revoke ends it", async () => {
    const { clientId, page } = await consent();
    const approved = await runCli(["oauth", "approve", page.code.toLowerCase(), "--url", `${url}/mcp`, "--key", ownerKey, "--trust", "verified"]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toContain('Approving "CLI test"');
    expect(approved.stderr).toContain(`oauth:${clientId} with trust verified`);
    expect(redirectParams(await submitConsent(fetch, page, "approve", approved.stdout.trim())).get("code")).toBeTruthy();

    const listed = await runCli(["oauth", "list", "--url", url, "--key", ownerKey]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).clients).toEqual([expect.objectContaining({ client_id: clientId, trust: "verified", live_grants: 1 })]);
    const revoked = await runCli(["oauth", "revoke", clientId, "--url", url, "--key", ownerKey]);
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: clientId });
    expect(JSON.parse((await runCli(["oauth", "list", "--url", url, "--key", ownerKey])).stdout).clients).toEqual([]);
  });

  it("allow lets a keyed agent use client_credentials with the trust named, and list shows it", async () => {
    const allowed = await runCli(["oauth", "allow", agent.clientId, "--url", url, "--key", ownerKey, "--trust", "verified"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ approved: agent.clientId, trust: "verified" });
    const listed = JSON.parse((await runCli(["oauth", "list", "--url", url, "--key", ownerKey])).stdout);
    expect(listed.clients).toContainEqual(expect.objectContaining({ client_id: agent.clientId, trust: "verified", live_grants: 1 }));
    await runCli(["oauth", "revoke", agent.clientId, "--url", url, "--key", ownerKey]);
  });

  it("allow --scope grants the scopes named, canonical; an unknown scope, or --scope off allow, is a usage error", async () => {
    const allowed = await runCli(["oauth", "allow", agent.clientId, "--url", url, "--key", ownerKey, "--scope", "motebit:task motebit:read"]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ approved: agent.clientId, scope: "motebit:read motebit:task" });
    const listed = JSON.parse((await runCli(["oauth", "list", "--url", url, "--key", ownerKey])).stdout);
    expect(listed.clients).toContainEqual(expect.objectContaining({ client_id: agent.clientId, scope: "motebit:read motebit:task" }));
    await runCli(["oauth", "revoke", agent.clientId, "--url", url, "--key", ownerKey]);
    const unknown = await runCli(["oauth", "allow", agent.clientId, "--url", url, "--key", ownerKey, "--scope", "motebit:read admin"]);
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining("--scope must be space-separated scopes of")]);
    expect((await runCli(["oauth", "list", "--url", url, "--key", ownerKey, "--scope", "motebit:read"])).code).toBe(2);
  });

  it("another key cannot approve or revoke; bad usage exits 2", async () => {
    const { clientId, page } = await consent();
    const approve = await runCli(["oauth", "approve", page.code, "--url", url, "--key", strangerKey]);
    expect(approve.code).toBe(1);
    expect(approve.stderr).toContain("is the key of");
    const revoke = await runCli(["oauth", "revoke", clientId, "--url", url, "--key", strangerKey]);
    expect(revoke.code).toBe(1);
    expect(revoke.stderr).toContain("HTTP 401");
    expect((await runCli(["oauth", "approve", "--url", url, "--key", ownerKey])).code).toBe(2);
    expect((await runCli(["oauth", "approve", page.code, "--url", url, "--key", ownerKey, "--trust", "trusted"])).code).toBe(2);
  });
});
