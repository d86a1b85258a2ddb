// `serve --serve-transport http` with DPoP (RFC 9449), driven by an independent client (oauth4webapi) over a real
// socket: the owner approves with `motebit-local oauth approve`; the DPoP-bound token works only with a proof by
// its key, refresh is proved by the same key, and a stolen token or a replayed proof is 401.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dpopInitialize, dpopRefresh, dpopSignIn, INITIALIZE_BODY } from "../../shared/dpop-client.js";
import { makeProof } from "../../shared/dpop-proof.js";
import { freePort, initMotebit, runCli, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

describe("serve over http with DPoP", () => {
  const tmp = tempDir();
  let server: HttpServe;

  beforeAll(async () => {
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "dpop-local"]);
    server = await startHttpServe(["--identity", identity, "--serve-port", String(await freePort())]);
  });

  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it("authorization code + DPoP and refresh with DPoP; the stolen token and a replayed proof are 401", async () => {
    const s = await dpopSignIn(server.url, fetch, async (d) => {
      const approved = await runCli(["oauth", "approve", d.request, "--url", server.url, "--key", join(tmp.dir, "motebit.key"), "--trust", "verified"]);
      expect(approved.code, approved.stderr).toBe(0);
      return approved.stdout.trim();
    });
    expect(s.tokens.token_type.toLowerCase()).toBe("dpop");
    expect((await dpopInitialize(s)).status).toBe(200);
    const next = await dpopRefresh(s);
    expect((await dpopInitialize(s, next.access_token)).status).toBe(200);

    const resource = `${server.url}/mcp`;
    const post = (auth: string, dpop?: string) =>
      fetch(resource, { method: "POST", headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", ...(dpop && { DPoP: dpop }) }, body: INITIALIZE_BODY });
    expect((await post(`Bearer ${next.access_token}`)).status).toBe(401);
    const key = { alg: "EdDSA" as const, privateKey: s.keyPair.privateKey, jwk: await crypto.subtle.exportKey("jwk", s.keyPair.publicKey) };
    const nonce = (await post(`DPoP ${next.access_token}`, await makeProof(key, "POST", resource, { token: next.access_token }))).headers.get("DPoP-Nonce")!;
    const proof = await makeProof(key, "POST", resource, { token: next.access_token, nonce });
    expect((await post(`DPoP ${next.access_token}`, proof)).status).toBe(200);
    const replayed = await post(`DPoP ${next.access_token}`, proof);
    expect([replayed.status, ((await replayed.json()) as { reason: string }).reason]).toEqual([401, "replayed"]);
  });
});
