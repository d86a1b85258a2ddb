// A fleet motebit's static token may not be the deployment's relay forward bearer (MOTEBIT_RELAY_FORWARD_TOKEN):
// whoever holds it would be served as the relay. The operator's create and PATCH refuse it with the rule a host's
// start-up uses, before anything is written: the name stays free, a patched motebit keeps its tokens.
import { describe, expect, it } from "vitest";
import { INITIALIZE } from "../edge/helpers.js";
import { createMotebit, fleetPost, operator } from "./helpers.js";

const FORWARD = "edge-test-relay-forward-token";
const REFUSED = /^MOTEBIT_RELAY_FORWARD_TOKEN equals a static token \(the one named "(static|ci)"\): its holders would be served as the relay/;

async function refusal(res: Response): Promise<[number, string]> {
  return [res.status, ((await res.json()) as { error: string }).error];
}

describe("the relay forward bearer as a fleet motebit's static token", () => {
  it("create refuses it as auth_token or among auth_tokens, and the name stays free", async () => {
    const [status, error] = await refusal(await operator("POST", "/motebits", { name: "fwd-create", auth_token: FORWARD }));
    expect(status).toBe(400);
    expect(error).toMatch(REFUSED);
    expect(error).toContain('"static"');
    const named = await refusal(await operator("POST", "/motebits", { name: "fwd-create", auth_tokens: { ci: { token: FORWARD, trust: "trusted" } } }));
    expect(named[0]).toBe(400);
    expect(named[1]).toMatch(REFUSED);
    expect((await operator("GET", "/motebits/fwd-create")).status).toBe(404);
    await createMotebit("fwd-create", { auth_token: "fwd-create-own-token" });
  });

  it("PATCH refuses it, and the motebit keeps the tokens it had", async () => {
    await createMotebit("fwd-patch", { auth_tokens: { ci: "fwd-patch-ci-token-01" } });
    const [status, error] = await refusal(await operator("PATCH", "/motebits/fwd-patch", { auth_tokens: { ci: FORWARD } }));
    expect(status).toBe(400);
    expect(error).toMatch(REFUSED);
    expect(await (await operator("GET", "/motebits/fwd-patch")).json()).toMatchObject({ static_tokens: ["ci"] });
    expect((await fleetPost("fwd-patch", INITIALIZE, { auth: "Bearer fwd-patch-ci-token-01" })).status).toBe(200);
    // Removing a token, or setting another, is not refused.
    expect((await operator("PATCH", "/motebits/fwd-patch", { auth_tokens: { ops: "fwd-patch-ops-token", ci: null } })).status).toBe(200);
  });
});
