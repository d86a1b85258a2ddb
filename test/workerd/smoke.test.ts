import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("serves /health", async () => {
  const res = await SELF.fetch("http://localhost/health");
  expect(res.status).toBe(200);
});
