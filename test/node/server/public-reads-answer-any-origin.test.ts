// A verifier on another site reads a motebit's public facts from the browser: over https, a GET of /health, the
// log's head and proofs or a signed discovery document passes the Origin check whatever the origin, and CORS lets
// that origin read it. Everything else keeps the check: /mcp, OAuth and any non-GET; and over plain http nothing is
// exempt, since there the check is what keeps a web page from reading (and so identifying) a motebit on the user's
// own machine.
import { describe, expect, it } from "vitest";
import { nodeApp } from "../helpers/node-app.js";

const FOREIGN = "https://auditor.example";
const HTTPS = "https://motebit.example";
const PUBLIC = ["/health", "/log/head", "/log/consistency?first=0&second=0", "/.well-known/mcp/server-card.json", "/mcp/server-card", "/.well-known/agent-card.json", "/server.json"];
const get = (url: string, origin = FOREIGN) => new Request(url, { headers: { Origin: origin } });

describe("public reads from a foreign origin", () => {
  it.each(PUBLIC)("over https, GET %s is served and readable by that origin", async (path) => {
    const { app } = await nodeApp();
    const res = await app.fetch(get(`${HTTPS}${path}`));
    expect(res.status).not.toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBe(FOREIGN);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("the log's head read from another site is the motebit's signed head", async () => {
    const { app } = await nodeApp();
    const same = (await (await app.fetch(new Request(`${HTTPS}/log/head`))).json()) as Record<string, unknown>;
    const res = await app.fetch(get(`${HTTPS}/log/head`));
    expect(res.status).toBe(200);
    const head = (await res.json()) as Record<string, unknown>;
    for (const k of ["tree_size", "root_hash", "motebit_id", "public_key", "suite"]) expect(head[k], k).toEqual(same[k]);
    expect(typeof head.signature).toBe("string");
  });

  it("over https a foreign origin is still refused at /mcp, at OAuth, beside the public paths and for any other method", async () => {
    const { app } = await nodeApp();
    const post = await app.fetch(new Request(`${HTTPS}/mcp`, { method: "POST", headers: { Origin: FOREIGN, "Content-Type": "application/json" }, body: "{}" }));
    expect(post.status).toBe(403);
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
    for (const path of ["/authorize", "/.well-known/oauth-protected-resource/mcp", "/log/head/extra", "/log"]) {
      const res = await app.fetch(get(`${HTTPS}${path}`));
      expect(res.status, path).toBe(403);
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
    }
    const del = await app.fetch(new Request(`${HTTPS}/log/head`, { method: "DELETE", headers: { Origin: FOREIGN } }));
    expect(del.status).toBe(403);
  });

  it.each(PUBLIC)("over plain http (a motebit on the user's machine) GET %s from a foreign origin is refused", async (path) => {
    const { app } = await nodeApp();
    const res = await app.fetch(get(`http://127.0.0.1:3100${path}`));
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});
