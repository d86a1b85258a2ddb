// What an OAuth caller costs per request, beside the ways in we already had, measured in the same run:
// authenticate() for the static token, a motebit: signed token (the baseline: one Ed25519 check, as OAuth needs)
// and an OAuth access token (at first sight, and again as a host sends it on its next request), then the audience
// check the app adds (the request's resource on the trusted base, src/oauth/http/public-base.ts) and the grant check
// the motebit's store adds at admission.
// Run: npm run bench:oauth (about 15 s)
import { mintAccessToken } from "../../src/oauth/access-token.js";
import { OAuthStore } from "../../src/oauth/store.js";
import { createSigner, mintBearerToken, sovereignMotebitId } from "../../src/protocol/index.js";
import { authenticate } from "../../src/server/auth.js";
import { platformPublicBase } from "../../src/oauth/http/public-base.js";
import { requestUrls } from "../../src/oauth/http/routes.js";
import { parseStaticTokens } from "../../src/settings/static-tokens.js";
import { memorySql } from "../../test/node/helpers/sqlite.js";

const SEED = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
const N = 4_000;
const ROUNDS = 3;

/** Best of ROUNDS: operations per second over N sequential runs of op(i). */
async function perSecond(op: (i: number) => Promise<unknown> | unknown): Promise<number> {
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    for (let i = 0; i < N; i++) await op(i);
    best = Math.max(best, (N * 1000) / (performance.now() - start));
  }
  return best;
}

async function main(): Promise<void> {
  const signer = await createSigner(SEED);
  const motebitId = await sovereignMotebitId(signer.publicKeyHex);
  const identity = { motebitId, publicKeyHex: signer.publicKeyHex };
  const settings = { staticTokens: parseStaticTokens({ static: "static-bench-token" }, "bench"), knownCallers: new Map(), relayTrust: null, relayId: null };
  const now = Date.now();
  const signed: string[] = [];
  for (let i = 0; i < N; i++) signed.push(`Bearer motebit:${await mintBearerToken({ mid: motebitId, did: "d", aud: "mcp:call", sub: motebitId }, signer)}`);
  const mintAccess = async (gid: string) => `Bearer ${(await mintAccessToken({ sub: motebitId, aud: "https://m.example/mcp", cid: "mcp_bench", gid, trust: "verified" }, now, signer)).token}`;
  const access = await mintAccess("g1");
  // Tokens never seen before, one per call of every round (the Worker remembers a token whose signature it checked).
  const fresh: string[] = [];
  for (let i = 0; i < N * ROUNDS; i++) fresh.push(await mintAccess(`g-${i}`));

  const staticRate = await perSecond(() => authenticate("Bearer static-bench-token", settings, identity, now));
  const signedRate = await perSecond((i) => authenticate(signed[i], settings, identity, now));
  let k = 0;
  const oauthFirstRate = await perSecond(() => authenticate(fresh[k++], settings, identity, now));
  const oauthRate = await perSecond(() => authenticate(access, settings, identity, now));
  const request = new Request("https://m.example/mcp", { method: "POST" });
  const audienceRate = await perSecond(() => requestUrls(request, undefined, platformPublicBase(null))?.resource === "https://m.example/mcp");
  const store = new OAuthStore(memorySql());
  store.migrate();
  store.createGrant({ id: "g1", clientId: "mcp_bench", trust: "verified", resource: "r", redirectUri: "u", codeChallenge: "c", codeHash: "h", codeExpiresAt: 9e15, createdAt: 1 });
  store.redeemCode("g1", "h", "rh", 9e15);
  const liveRate = await perSecond(() => store.isLive("g1"));

  const f = (n: number) => Math.round(n).toLocaleString("en-US");
  process.stdout.write(`authenticate(), requests/s (best of ${ROUNDS} × ${N}):\n`);
  process.stdout.write(`  static token              ${f(staticRate)}\n`);
  process.stdout.write(`  motebit: signed (baseline) ${f(signedRate)}\n`);
  process.stdout.write(`  OAuth access token, first sight  ${f(oauthFirstRate)}   ${(oauthFirstRate / signedRate).toFixed(2)}× the signed token\n`);
  process.stdout.write(`  the same token again      ${f(oauthRate)}   ${(oauthRate / signedRate).toFixed(2)}× the signed token (its signature checked once)\n`);
  process.stdout.write(`audience check in the app      ${f(audienceRate)}/s  (${(1e6 / audienceRate).toFixed(1)} µs, the resource on the trusted base)\n`);
  process.stdout.write(`grant check at admission      ${f(liveRate)}/s  (${(1e6 / liveRate).toFixed(1)} µs, one primary-key read)\n`);
}

await main();
