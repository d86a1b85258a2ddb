// The page at / is plain HTML that reads without script, allowed one inline script and one style by their hashes
// under default-src 'none' with fetches to its own origin only (#39 item 4; Chromium runs it in interop:page).
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { nodeApp } from "../helpers/node-app.js";

const b64sha = (s: string) => createHash("sha256").update(s, "utf8").digest("base64");

describe("the motebit's page", () => {
  it("its CSP allows exactly the inline script and style it carries, and nothing from anywhere else", async () => {
    const { app } = await nodeApp();
    const res = await app.fetch(new Request("http://127.0.0.1/"));
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "text/html; charset=utf-8"]);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect([scripts.length, styles.length]).toEqual([1, 1]);
    expect(res.headers.get("Content-Security-Policy")).toBe(
      `default-src 'none'; script-src 'sha256-${b64sha(scripts[0])}'; style-src 'sha256-${b64sha(styles[0])}'; connect-src 'self'; img-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\/(?!127\.0\.0\.1)/);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });

  it("without script it names the motebit, its keys, the MCP URL and every tool with its risk; each control has a label", async () => {
    const { app, motebit } = await nodeApp();
    const html = await (await app.fetch(new Request("http://127.0.0.1/"))).text();
    const text = html.replace(/<script>[\s\S]*?<\/script>/, "");
    for (const s of [motebit.motebitId, motebit.did, motebit.publicKeyHex, "http://127.0.0.1/mcp", "R0_READ", "echo", "motebit_task"]) expect(text).toContain(s);
    for (const id of ["receipt", "file"]) expect(html).toContain(`<label for="${id}">`);
    expect(html).toContain(`data-log-head="http://127.0.0.1/log/head"`);
  });
});
