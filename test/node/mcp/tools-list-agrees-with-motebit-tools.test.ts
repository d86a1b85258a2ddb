import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { REFUSAL_META_KEY } from "../../../src/mcp/catalog.js";
import { NO_PROVIDER } from "../../../src/mcp/synthetic/query.js";
import { RECALL_REFUSAL } from "../../../src/mcp/synthetic/recall.js";
import type { Principal } from "../../../src/principal.js";

type Listed = { name: string; description: string; inputSchema: Record<string, unknown>; _meta?: Record<string, string> };

/** A call that passes any input schema's required string fields, so only a refusal can stop it. */
function argsFor(t: Listed): Record<string, unknown> {
  const required = (t.inputSchema.required as string[] | undefined) ?? [];
  return Object.fromEntries(required.map((k) => [k, "x"]));
}

const principals: [string, Principal][] = [
  ["owner", owner],
  ["trusted peer", peer("trusted")],
  ["verified peer", peer("verified")],
  ["first_contact peer", peer("first_contact")],
];

describe("tools/list and motebit_tools tell one story", () => {
  for (const identity of ["service", "personal"] as const) {
    for (const [label, p] of principals) {
      it(`${identity} motebit, ${label}: the unrefused tools/list entries are exactly motebit_tools, and each refused one is refused with its stated reason`, async () => {
        const h = await makeMotebit({ identity });
        const listed: Listed[] = (await h.rpc(p, "tools/list")).result.tools;
        const callable = JSON.parse(stripIdentityTag(await h.text(p, "motebit_tools"))).map((t: { name: string }) => t.name);
        expect(listed.filter((t) => !t._meta).map((t) => t.name)).toEqual(callable);
        for (const t of listed.filter((x) => x._meta)) {
          const reason = t._meta![REFUSAL_META_KEY];
          expect(t.description.endsWith(`\n[Refused for you: ${reason}]`)).toBe(true);
          const r = await h.call(p, t.name, argsFor(t));
          expect(stripIdentityTag(r.content[0].text)).toBe(reason);
          expect(r.isError).toBe(true);
        }
      });
    }
  }

  it("a peer sees motebit_recall and motebit_query listed with the reasons they refuse it", async () => {
    const h = await makeMotebit({ identity: "service" });
    const listed: Listed[] = (await h.rpc(peer("trusted"), "tools/list")).result.tools;
    expect(listed.find((t) => t.name === "motebit_recall")!._meta).toEqual({ [REFUSAL_META_KEY]: RECALL_REFUSAL });
    expect(listed.find((t) => t.name === "motebit_query")!._meta).toEqual({ [REFUSAL_META_KEY]: NO_PROVIDER });
    expect(listed.find((t) => t.name === "motebit_task")!._meta).toBeUndefined();
  });

  it("the approval band is named for a verified peer of a personal motebit, not for its owner", async () => {
    const h = await makeMotebit({ identity: "personal" });
    const forPeer: Listed[] = (await h.rpc(peer("verified"), "tools/list")).result.tools;
    expect(forPeer.find((t) => t.name === "motebit_task")!._meta![REFUSAL_META_KEY]).toMatch(/^Governance: tool "motebit_task" requires approval/);
    const forOwner: Listed[] = (await h.rpc(owner, "tools/list")).result.tools;
    expect(forOwner.find((t) => t.name === "motebit_task")!._meta).toBeUndefined();
  });
});
