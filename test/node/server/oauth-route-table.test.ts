// The one OAuth route table (src/oauth/paths.ts) is what the app mounts, what the authorization server dispatches
// on, what the metadata names, and what the Worker moves a fleet motebit's well-known paths by.
import { describe, expect, it } from "vitest";
import { OAUTH_ENDPOINT_LIST, OAUTH_ENDPOINTS, OAUTH_WELL_KNOWN_SUFFIXES } from "../../../src/oauth/paths.js";
import { withFleetWellKnown } from "../../../worker/oauth-paths.js";
import { BASE, json, setup } from "./oauth-setup.js";

describe("the OAuth route table", () => {
  it("every method an endpoint lacks is 405 at a fixed path and 404 under a path parameter, and no endpoint asks for auth", async () => {
    const s = await setup();
    for (const { endpoint: e } of OAUTH_ENDPOINT_LIST) {
      const url = `${BASE}${e.path}${e.param === undefined ? "" : "ABCD-EFGH"}`;
      for (const method of ["GET", "POST", "PUT", "DELETE"]) {
        const res = await s.fetchFn(url, { method });
        expect(res.status, `${method} ${url}`).not.toBe(401);
        if (!e.methods.includes(method)) expect(res.status, `${method} ${url}`).toBe(e.param === undefined ? 405 : 404);
      }
    }
  });

  it("the authorization-server metadata names the table's endpoints under the issuer", async () => {
    const s = await setup();
    const m = await json(s.fetchFn(`${BASE}/.well-known/oauth-authorization-server`));
    expect([m.authorization_endpoint, m.token_endpoint, m.registration_endpoint]).toEqual(
      [OAUTH_ENDPOINTS.authorize, OAUTH_ENDPOINTS.token, OAUTH_ENDPOINTS.register].map((e) => `${BASE}${e.path}`),
    );
  });

  it("a fleet motebit's well-known paths move under its own prefix, every other path stays", () => {
    for (const suffix of OAUTH_WELL_KNOWN_SUFFIXES) {
      expect(new URL(withFleetWellKnown(new Request(`${BASE}${suffix}/m/north/mcp`)).url).pathname).toBe(`/m/north${suffix}/mcp`);
      expect(new URL(withFleetWellKnown(new Request(`${BASE}${suffix}/m/north`)).url).pathname).toBe(`/m/north${suffix}`);
    }
    expect(new URL(withFleetWellKnown(new Request(`${BASE}/m/north/authorize`)).url).pathname).toBe("/m/north/authorize");
  });
});
