import { describe, expect, it } from "vitest";
import { scopeChallengeResponse } from "../../../src/server/scope-challenge.js";

describe("the insufficient_scope challenge", () => {
  it("keeps its header to what RFC 6750 allows whatever the tool's name, and the body keeps the name as it is", async () => {
    const message = 'the tool "grüße\\\r\n" needs the OAuth scope motebit:tools';
    const res = scopeChallengeResponse({ scope: "motebit:read motebit:tools", message });
    expect(res.status).toBe(403);
    expect(res.headers.get("WWW-Authenticate")).toBe(
      'Bearer error="insufficient_scope", scope="motebit:read motebit:tools", error_description="the tool ?gr??e???? needs the OAuth scope motebit:tools"',
    );
    expect(await res.json()).toMatchObject({ error: "insufficient_scope", scope: "motebit:read motebit:tools", reason: message });
  });
});
