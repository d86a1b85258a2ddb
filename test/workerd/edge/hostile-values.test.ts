// The edge (the real Worker and its Durable Object in workerd) against the shared hostile values.
import { SELF } from "cloudflare:test";
import { describeHostileValues } from "../../shared/hostile-values.js";
import { objectRows, STATIC } from "./helpers.js";

describeHostileValues("edge", async () => ({
  fetch: (req) => SELF.fetch(req),
  auth: STATIC,
  rpcAuditRows: () => objectRows<{ tool: string; outcome: string }>("SELECT tool, outcome FROM audit_log WHERE tool LIKE 'rpc:%' ORDER BY id DESC"),
}));
