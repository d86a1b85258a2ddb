// motebit-local fleet allow: the operator's allow of a keyed agent goes to the fleet API as the client_id and trust
// named, with the operator token, and the Worker's answer (or its refusal, as one line) comes back.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

vi.setConfig({ testTimeout: 90_000 });

const AGENT = "https://agent.example/client.json";
let url = "";
let server: Server;
let seen: { method?: string; path?: string; auth?: string; body: string } = { body: "" };
let status = 200;
/** What the stand-in Worker answers to a 200 allow. */
let answer: Record<string, unknown> = { approved: AGENT, trust: "verified", grant: "g-1" };
const dir = tempDir();
const tokenFile = join(dir, "operator.token");

beforeAll(async () => {
  writeFileSync(tokenFile, "operator-token-of-the-test\n", { mode: 0o600 });
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen = { method: req.method, path: req.url, auth: req.headers.authorization, body };
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(status === 200 ? answer : { error: "this client cannot be approved: no keys" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("fleet allow", () => {
  it("posts the client_id and trust to the motebit's agents and prints the answer", async () => {
    status = 200;
    const r = await runCli(["fleet", "allow", "alpha", AGENT, "--url", url, "--token-file", tokenFile, "--trust", "verified"]);
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual({ method: "POST", path: "/fleet/motebits/alpha/oauth/agents", auth: "Bearer operator-token-of-the-test", body: JSON.stringify({ client_id: AGENT, trust: "verified" }) });
    expect(JSON.parse(r.stdout)).toEqual({ approved: AGENT, trust: "verified", grant: "g-1" });
  });

  it("--scope goes in the body, canonical; an unknown scope is a usage error and sends nothing", async () => {
    status = 200;
    answer = { approved: AGENT, trust: "first_contact", scope: "motebit:read motebit:task", grant: "g-2" };
    const r = await runCli(["fleet", "allow", "alpha", AGENT, "--url", url, "--token-file", tokenFile, "--scope", "motebit:task motebit:read"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(seen.body)).toEqual({ client_id: AGENT, trust: "first_contact", scope: "motebit:read motebit:task" });
    seen = { body: "" };
    const unknown = await runCli(["fleet", "allow", "alpha", AGENT, "--url", url, "--token-file", tokenFile, "--scope", "admin"]);
    expect([unknown.code, seen.body]).toEqual([2, ""]);
  });

  it("a Worker from before --scope, answering no scope (it granted all four), makes allow --scope fail", async () => {
    status = 200;
    answer = { approved: AGENT, trust: "first_contact", grant: "g-3" };
    const r = await runCli(["fleet", "allow", "alpha", AGENT, "--url", url, "--token-file", tokenFile, "--scope", "motebit:read"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('granted scope "motebit:read motebit:tools motebit:task motebit:remember", not "motebit:read"');
  });

  it("a refusal is one line with the Worker's reason; a missing client_id is a usage error", async () => {
    status = 400;
    const r = await runCli(["fleet", "allow", "alpha", AGENT, "--url", url, "--token-file", tokenFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("HTTP 400: this client cannot be approved: no keys");
    expect(JSON.parse(seen.body)).toEqual({ client_id: AGENT, trust: "first_contact" });
    expect((await runCli(["fleet", "allow", "alpha", "--url", url, "--token-file", tokenFile])).code).toBe(2);
  });
});
