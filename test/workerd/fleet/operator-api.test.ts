// The operator's API: create answers the public key and a signed identity made inside the object; the same name
// is 409; list pages by cursor; get, patch and delete; a wrong token is 401; bad bodies are 400 and create nothing.
import { describe, expect, it } from "vitest";
import { verifyIdentityFile } from "../../../src/protocol/index.js";
import { INITIALIZE, rpc } from "../edge/helpers.js";
import { createMotebit, fleetInitialize, fleetPost, operator, rpcBody, tokenFor } from "./helpers.js";

describe("the fleet operator API", () => {
  it("creates a motebit whose key and signed identity were made in its object", async () => {
    const res = await operator("POST", "/motebits", { name: "alpha", type: "service", display_name: "Alpha", governance: { deny_above: "R2_WRITE" } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["identity", "mcp_url", "motebit_id", "name", "public_key"]);
    expect(body.mcp_url).toBe("http://edge.test/m/alpha/mcp");
    const verdict = await verifyIdentityFile(body.identity);
    expect(verdict.valid).toBe(true);
    expect(verdict.publicKeyHex).toBe(body.public_key);
    expect(verdict.doc).toMatchObject({ motebit_id: body.motebit_id, type: "service", service_name: "Alpha", governance: { deny_above: "R2_WRITE" } });
    // The seed is nowhere in what the operator sees.
    const got = await operator("GET", "/motebits/alpha");
    expect(JSON.stringify(await got.json())).not.toMatch(/seed/);
  });

  it("the same name again is 409", async () => {
    await createMotebit("twice");
    const again = await operator("POST", "/motebits", { name: "twice" });
    expect([again.status, await again.json()]).toEqual([409, { error: "twice already exists" }]);
  });

  it("a wrong or missing operator token is 401, on every operator route", async () => {
    for (const [method, path] of [["GET", "/motebits"], ["POST", "/motebits"], ["GET", "/motebits/alpha"], ["DELETE", "/motebits/alpha"]]) {
      expect((await operator(method, path, method === "POST" ? { name: "x" } : undefined, "not-the-token")).status).toBe(401);
      expect((await operator(method, path, undefined, null)).status).toBe(401);
    }
  });

  it("bad bodies are 400 with the reason and create nothing", async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: "Upper" }, /name must be/],
      [{ name: "x".repeat(64) }, /name must be/],
      [{ name: "ok", colour: "red" }, /unknown field\(s\): colour/],
      [{ name: "ok", type: "robot" }, /type must be/],
      [{ name: "ok", governance: { deny_above: "R9" } }, /governance.deny_above/],
      [{ name: "ok", known_callers: { x: { public_key: "zz" } } }, /known_callers/],
      [{ name: "ok", auth_token: "short" }, /auth_token must be/],
      [{ name: "ok", tools: ["no_such_tool"] }, /no served tool named "no_such_tool"/],
    ];
    for (const [body, reason] of cases) {
      const res = await operator("POST", "/motebits", body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(reason);
    }
    expect((await operator("GET", "/motebits/ok")).status).toBe(404);
  });

  it("lists in name order, paged by cursor", async () => {
    for (const n of ["page-c", "page-a", "page-b"]) await createMotebit(n);
    const first = (await (await operator("GET", "/motebits?limit=2&after=page")).json()) as { motebits: { name: string; status: string; mcp_url: string }[]; next: string };
    expect(first.motebits.map((m) => m.name)).toEqual(["page-a", "page-b"]);
    expect(first.motebits[0]).toMatchObject({ status: "ready", mcp_url: "http://edge.test/m/page-a/mcp" });
    expect(first.next).toBe("page-b");
    const second = (await (await operator("GET", "/motebits?limit=2&after=page-b")).json()) as { motebits: { name: string }[]; next: string | null };
    expect(second.motebits[0].name).toBe("page-c");
    expect((await operator("GET", "/motebits?limit=0")).status).toBe(400);
  });

  it("named static tokens: each its own caller; patch rotates or removes one by name and leaves the others", async () => {
    const res = await operator("POST", "/motebits", { name: "named", auth_tokens: { ci: "fleet-ci-token-00001", ops: { token: "fleet-ops-token-0001", trust: "trusted" } } });
    expect(res.status).toBe(201);
    expect(await (await operator("GET", "/motebits/named")).json()).toMatchObject({ static_token: true, static_tokens: ["ci", "ops"] });
    const ciSession = await fleetInitialize("named", "Bearer fleet-ci-token-00001");
    // ops cannot use ci's session.
    expect((await fleetPost("named", rpc("ping"), { auth: "Bearer fleet-ops-token-0001", session: ciSession })).status).toBe(404);
    const patched = await operator("PATCH", "/motebits/named", { auth_tokens: { ci: "fleet-ci-token-00002", ops: null } });
    expect(await patched.json()).toMatchObject({ static_tokens: ["ci"] });
    expect((await fleetPost("named", INITIALIZE, { auth: "Bearer fleet-ci-token-00001" })).status).toBe(401);
    expect((await fleetPost("named", INITIALIZE, { auth: "Bearer fleet-ops-token-0001" })).status).toBe(401);
    // The new ci token is the same caller name but not the old token's holder: the old session is not its own.
    expect((await fleetPost("named", rpc("ping"), { auth: "Bearer fleet-ci-token-00002", session: ciSession })).status).toBe(404);
    expect((await fleetPost("named", INITIALIZE, { auth: "Bearer fleet-ci-token-00002" })).status).toBe(200);
    const bad = await operator("PATCH", "/motebits/named", { auth_tokens: { ci: "short" } });
    expect([bad.status, ((await bad.json()) as { error: string }).error]).toEqual([400, 'auth_tokens["ci"] must be a string of at least 16 characters']);
  });

  it("patch changes callers, static token and tools; delete retires: 404 after, and the name is free again with a new key", async () => {
    const made = await createMotebit("patched");
    const patched = await operator("PATCH", "/motebits/patched", { auth_token: "a-static-token-of-16+", tools: ["echo"], known_callers: {} });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ tools: ["echo"], known_callers: [], static_token: true, motebit_id: made.motebit_id });
    // From the next request on: the removed caller is refused, the new static token is accepted, only echo is served.
    expect((await fleetPost("patched", INITIALIZE, { auth: await tokenFor(made.motebit_id) })).status).toBe(401);
    const session = await fleetInitialize("patched", "Bearer a-static-token-of-16+");
    const list = await rpcBody(await fleetPost("patched", rpc("tools/list"), { auth: "Bearer a-static-token-of-16+", session }));
    const names = (list.result!.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("word_count");
    const gone = await operator("DELETE", "/motebits/patched");
    expect([gone.status, await gone.json()]).toEqual([200, { name: "patched", motebit_id: made.motebit_id, public_key: made.public_key, retired: true }]);
    expect((await operator("GET", "/motebits/patched")).status).toBe(404);
    expect((await operator("DELETE", "/motebits/patched")).status).toBe(404);
    expect((await operator("PATCH", "/motebits/patched", { tools: null })).status).toBe(404);
    const again = await createMotebit("patched");
    expect(again.public_key).not.toBe(made.public_key);
  });
});
