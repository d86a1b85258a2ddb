// src/protocol runs unchanged in workerd and Node: no platform modules, only WebCrypto, TextEncoder and
// @noble/hashes (pure JS, in the stack: small digests without WebCrypto's round trip), and src/bounded below it.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const DIR = fileURLToPath(new URL("../../../src/protocol/", import.meta.url));

/** Its own files, the bounded helpers (echo, BoundedCache: themselves import nothing), or a pure-JS module of @noble/hashes. */
const ALLOWED = /^(\.\/[a-z0-9-]+\.js|\.\.\/bounded\/[a-z0-9-]+\.js|@noble\/hashes\/[a-z0-9-]+\.js)$/;

it("src/protocol imports nothing but its own files, src/bounded and @noble/hashes", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(10);
  for (const f of files) {
    const src = readFileSync(DIR + f, "utf8");
    const specifiers = [...src.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)].map((m) => m[1]);
    for (const s of specifiers) expect(s, `${f} imports ${s}`).toMatch(ALLOWED);
    expect(src, f).not.toMatch(/\b(require\(|process\.|Buffer\b)/);
  }
});
