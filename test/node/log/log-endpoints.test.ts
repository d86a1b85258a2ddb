// The Node host's app in-process against the shared transparency-log cases.
import { describeTransparencyLog } from "../../shared/transparency-log.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";

describeTransparencyLog("node", async () => {
  const { app } = await nodeApp();
  return { fetch: async (req) => app.fetch(req), auth: `Bearer ${keys.auth_token}`, base: "" };
});
