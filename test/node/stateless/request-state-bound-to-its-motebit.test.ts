// A requestState is signed with the key of the motebit that asked: another motebit serving the same tools (a
// fleet's neighbour, with its own key) refuses it, whatever the caller, tool and arguments.
import { afterAll, beforeAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless } from "../helpers/stateless-post.js";

let a: ProtocolHost;
let b: ProtocolHost;
beforeAll(async () => {
  a = await startProtocolHost();
  b = await startProtocolHost({}, [], undefined, keys.stranger.seed_hex);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function askUser(host: ProtocolHost, extra: Record<string, unknown> = {}) {
  return (await postStateless(host.http.url, "tools/call", { name: "ask_user", arguments: {}, ...extra }, { caps: { elicitation: {} } })).body;
}

it("a state minted by one motebit is refused by another with the same tools and the same caller", async () => {
  expect(a.motebit.motebitId).not.toBe(b.motebit.motebitId);
  const state = (await askUser(a)).result!.requestState as string;
  const answers = { inputResponses: { "elicitation/create#0": { action: "accept", content: { colour: "teal" } } }, requestState: state };
  const there = await askUser(b, answers);
  expect(there.error?.code).toBe(-32602);
  expect(there.error?.message).toMatch(/^Invalid requestState/);
  const here = await askUser(a, answers);
  expect(here.result?.resultType).toBe("complete");
});
