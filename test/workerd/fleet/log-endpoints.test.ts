// A fleet motebit's transparency log lives under /m/<name>: the shared cases there, its head signed with its own key
// (never the deployment's), and a name nobody provisioned is 404.
import { SELF } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { describeTransparencyLog, getLog } from "../../shared/transparency-log.js";
import { keys } from "../edge/helpers.js";
import { CALLER_STATIC, createMotebit, type Created } from "./helpers.js";

let a: Created;
beforeAll(async () => {
  a = await createMotebit("log-a", { auth_token: CALLER_STATIC });
});

const host = { fetch: (req: Request) => SELF.fetch(req), auth: `Bearer ${CALLER_STATIC}`, base: "/m/log-a" };

describeTransparencyLog("a fleet motebit", async () => host);

it("a fleet motebit's head is signed with its own key, and an unknown name has no log", async () => {
  const head = await getLog(host, "head");
  expect(head.body.public_key).toBe(a.public_key);
  expect(head.body.public_key).not.toBe(keys.server.public_key_hex);
  expect((await getLog({ ...host, base: "/m/nobody-here" }, "head")).status).toBe(404);
});

it("over https another site reads a fleet motebit's head and cards; /mcp under the same name still refuses it", async () => {
  const origin = "https://auditor.example";
  for (const path of ["/log/head", "/.well-known/agent-card.json"]) {
    const res = await SELF.fetch(`https://edge.test/m/log-a${path}`, { headers: { Origin: origin } });
    expect(res.status, path).toBe(200);
    expect(res.headers.get("Access-Control-Allow-Origin"), path).toBe(origin);
  }
  const plain = await SELF.fetch("http://edge.test/m/log-a/log/head", { headers: { Origin: origin } });
  expect(plain.status).toBe(403);
  const mcp = await SELF.fetch("https://edge.test/m/log-a/mcp", { method: "POST", headers: { Origin: origin, "Content-Type": "application/json" }, body: "{}" });
  expect(mcp.status).toBe(403);
});
