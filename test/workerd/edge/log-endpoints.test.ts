// The edge (the real Worker and its Durable Object in workerd) against the shared transparency-log cases.
import { SELF } from "cloudflare:test";
import { describeTransparencyLog } from "../../shared/transparency-log.js";
import { STATIC } from "./helpers.js";

describeTransparencyLog("edge", async () => ({ fetch: (req) => SELF.fetch(req), auth: STATIC, base: "" }));
