// Step-up with the MCP SDK clients (v1 and v2) against the Node host's app: a motebit:read grant, motebit_task
// refused 403 insufficient_scope, consent again for motebit:read motebit:task, the owner approves, the task runs.
import { describe, expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { createSigner, stripIdentityTag } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import type { FetchFn } from "../../shared/oauth-driver.js";
import { SDK_V1, SDK_V2, stepUpFromRead } from "../../shared/oauth-step-up.js";

const BASE = "https://motebit.test";

describe("the MCP SDK client steps up from a narrow grant on the Node host", () => {
  for (const sdk of [SDK_V1, SDK_V2]) {
    it(`${sdk.name}: motebit:read, then motebit_task after 403 insufficient_scope and the owner's second approval`, async () => {
      const { app, sql } = await nodeApp();
      const fetchFn: FetchFn = async (url, init) => app.fetch(new Request(url, init));
      const signer = await createSigner(keys.server.seed_hex);
      const { result, clientId } = await stepUpFromRead(sdk, fetchFn, new URL(`${BASE}/mcp`), async (page) => {
        const details = (await (await fetchFn(`${BASE}/oauth/requests/${page.code}`)).json()) as RequestDetails;
        return signApproval(details, "verified", signer);
      });
      const receipt = JSON.parse(stripIdentityTag(result.content[0].text));
      expect(receipt.status).toBe("completed");
      // The refused call ran nothing and is on the record; the call after the step-up ran once.
      expect(sql.all("SELECT task_id FROM receipts")).toHaveLength(1);
      const audited = sql.all<{ outcome: string }>("SELECT outcome FROM audit_log WHERE tool = 'motebit_task' AND caller = ? ORDER BY id", `peer:oauth:${clientId}`);
      expect(audited.map((a) => a.outcome)).toEqual(["denied", "allowed"]);
    });
  }
});
