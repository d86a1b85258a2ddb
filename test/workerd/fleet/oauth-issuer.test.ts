// A fleet motebit's OAuth URLs are built on MOTEBIT_PUBLIC_URL plus /m/<name>, whatever Host a request names; its
// OpenID Connect discovery is 404 (#42 items 1 and 6).
import { SELF } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { BASE } from "../edge/helpers.js";
import { createMotebit } from "./helpers.js";

beforeAll(async () => {
  await createMotebit("oi-alpha");
});

it("metadata of /m/<name> names the public URL under another Host; unknown discovery documents are 404", async () => {
  const prm = await SELF.fetch("http://evil.example/.well-known/oauth-protected-resource/m/oi-alpha/mcp");
  expect(await prm.json()).toMatchObject({ resource: `${BASE}/m/oi-alpha/mcp`, authorization_servers: [`${BASE}/m/oi-alpha`] });
  const as = (await (await SELF.fetch("http://evil.example/m/oi-alpha/.well-known/oauth-authorization-server")).json()) as { issuer: string };
  expect(as.issuer).toBe(`${BASE}/m/oi-alpha`);
  const oidc = await SELF.fetch(`${BASE}/m/oi-alpha/.well-known/openid-configuration`);
  expect([oidc.status, oidc.headers.get("WWW-Authenticate")]).toEqual([404, null]);
  await oidc.body?.cancel();
});
