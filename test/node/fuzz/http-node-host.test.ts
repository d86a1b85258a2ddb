// The Node host's HTTP surface (the shared app in-process) under the shared HTTP fuzzer.
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { describeHttpFuzz } from "../../shared/fuzz-http.js";
import { nodeApp } from "../helpers/node-app.js";

describeHttpFuzz("Node host", async () => {
  const { app, sql } = await nodeApp();
  const caller = await createSigner(keys.known_caller.seed_hex);
  return {
    fetch: async (req) => app.fetch(req),
    auth: `Bearer ${keys.auth_token}`,
    signedAuth: async (jti) =>
      `Bearer motebit:${await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, jti }, caller)}`,
    rows: async (table) => sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0].n,
  };
});
