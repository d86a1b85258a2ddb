// Black box: the README's .dev.vars step done as a newcomer does it — the identity file pasted without backticks.
// wrangler's dotenv keeps only "---" of it; the edge must say to wrap it in backticks.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createIdentityDoc, createSigner, signIdentityFile } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

let edge: LocalEdge;

beforeAll(async () => {
  const signer = await createSigner(keys.server.seed_hex);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type: "service", name: "pasted", now: new Date(1_767_225_600_000) });
  edge = await startLocalEdge(
    { MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: keys.auth_token },
    { envText: `MOTEBIT_IDENTITY=${await signIdentityFile(doc, signer)}` },
  );
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

it("an identity file cut to its first line by .dev.vars: the 503 says to wrap it in backticks", async () => {
  const health = await fetch(`${edge.url}/health`);
  expect(health.status).toBe(503);
  const { error } = (await health.json()) as { error: string };
  expect(error).toMatch(/^MOTEBIT_IDENTITY is not a valid signed identity file: /);
  expect(error).toContain('(it is one line, "---": a multi-line value in .dev.vars keeps only its first line unless it is wrapped in backticks, MOTEBIT_IDENTITY=`<the whole motebit.md>`');
  await expect.poll(() => edge.output(), { timeout: 5_000 }).toContain("wrapped in backticks");
});
