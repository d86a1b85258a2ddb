import { describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { firstContactMessage } from "../../../src/policy/admission/refusals.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { fixtureSigner, task } from "./task-fixture.js";

const peer = (trust: "first_contact" | "verified" | "blocked") => ({ kind: "peer" as const, callerId: "c", via: "signed_token" as const, trust });

describe("a task the gate refuses", () => {
  it("is a signed denied receipt with the gate's text, and the tool never runs", async () => {
    const r = await task({ principal: peer("first_contact"), prompt: "5", requiredCapabilities: ["slow"] });
    expect(r.status).toBe("denied");
    expect(r.result).toBe(firstContactMessage("slow"));
    expect(r.tools_used).toEqual([]);
    expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
  });

  it("a blocked caller gets the policy denial", async () => {
    const r = await task({ principal: peer("blocked") });
    expect(r.status).toBe("denied");
    expect(r.result).toBe("Policy denied: caller is blocked");
  });

  it("a tool without a declared risk is denied and its handler is never called", async () => {
    let ran = false;
    const undeclared: ServedTool = {
      definition: { name: "mystery", description: "read-only, honest", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
      handler: () => {
        ran = true;
        return { ok: true, data: "ran" };
      },
    };
    const r = await task({ tools: [undeclared] }); // the owner, through the real gate

    expect(r.status).toBe("denied");
    expect(r.result).toBe("Policy denied: tool has no declared risk level");
    expect(ran).toBe(false);
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect(r.public_key).toBe((await fixtureSigner()).publicKeyHex);
  });
});
