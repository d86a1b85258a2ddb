// At the edge the OAuth limits key on CF-Connecting-IP (set by Cloudflare, not by the caller): a flood from one
// address is answered 429 with Retry-After, and another address still registers and gets a consent page, on the
// deployment's motebit and on a fleet motebit. Before, 200 /authorize made every client temporarily_unavailable.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REDIRECT_URI } from "../../shared/oauth-driver.js";
import { BASE } from "./helpers.js";
import { createMotebit } from "../fleet/helpers.js";

const from = (ip: string, init: RequestInit = {}) => ({ ...init, headers: { ...(init.headers as Record<string, string>), "CF-Connecting-IP": ip } });
const register = (base: string, ip: string) =>
  SELF.fetch(`${base}/register`, from(ip, { method: "POST", body: JSON.stringify({ client_name: "t", redirect_uris: [REDIRECT_URI] }) }));
const authorize = (base: string, ip: string, clientId: string) => {
  const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
  return SELF.fetch(`${base}/authorize?${q}`, from(ip, { redirect: "manual" }));
};

beforeAll(async () => {
  await createMotebit("oa-flood");
});

describe.each([["the deployment's motebit", BASE, "203.0.113."], ["a fleet motebit", `${BASE}/m/oa-flood`, "198.51.100."]])("OAuth flood limits on %s", (_, base, net) => {
  it("one address flooding /authorize and /register gets 429 + Retry-After; another address is served", async () => {
    const flooder = `${net}9`;
    const { client_id } = (await (await register(base, flooder)).json()) as { client_id: string };
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 120; i++) {
      const res = await (i % 2 === 0 ? authorize(base, flooder, client_id) : register(base, flooder));
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 429) expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      await res.arrayBuffer();
    }
    // The bucket holds 60 and refills one a second while the loop runs; nothing is 503 or temporarily_unavailable (303).
    expect(statuses[429]).toBeGreaterThanOrEqual(40);
    expect(statuses[503] ?? 0).toBe(0);
    expect(statuses[303] ?? 0).toBe(0);

    const other = `${net}10`;
    const reg = await register(base, other);
    expect(reg.status).toBe(201);
    const page = await authorize(base, other, ((await reg.json()) as { client_id: string }).client_id);
    expect(page.status).toBe(200);
  });
});
