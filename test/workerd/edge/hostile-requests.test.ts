// The edge (the real Worker and its Durable Object in workerd) against the shared hostile requests.
import { SELF } from "cloudflare:test";
import { describeHostileRequests } from "../../shared/hostile-requests.js";
import { objectRows, signedAuth, STATIC } from "./helpers.js";

describeHostileRequests("edge", async () => ({
  fetch: (req) => SELF.fetch(req),
  auth: STATIC,
  signedAuth: (jti) => signedAuth("known_caller", { jti }),
  rows: async (table) => (await objectRows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n,
  cutBody: "end",
}));
