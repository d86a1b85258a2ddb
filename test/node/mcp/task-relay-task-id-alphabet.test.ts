// A relay_task_id is signed into the receipt, stored, and becomes a path segment of the relay lookup
// (/agent/<id>/task/<relay_task_id>): only ids in a safe alphabet ([A-Za-z0-9._:-], at most 128 characters, never
// "." or "..") are accepted; any other is refused before anything runs, is looked up or is written, with the reason.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { relayTaskIdProblem, RELAY_TASK_ID_MAX_LENGTH, stripIdentityTag } from "../../../src/protocol/index.js";
import { relayTaskLookup } from "../../../src/relay/task-lookup.js";
import type { RelayClient } from "../../../src/relay/client.js";
import { makeMotebit, relayPeer } from "../helpers/motebit.js";

const BAD: [string, string][] = [
  [".", 'relay_task_id may not be "." or ".."'],
  ["..", 'relay_task_id may not be "." or ".."'],
  ["", "relay_task_id is empty"],
  ["a/b", "relay_task_id may hold only letters, digits and . _ : -"],
  ["../admin", "relay_task_id may hold only letters, digits and . _ : -"],
  ["%2e%2e", "relay_task_id may hold only letters, digits and . _ : -"],
  ["a b", "relay_task_id may hold only letters, digits and . _ : -"],
  ["tâche", "relay_task_id may hold only letters, digits and . _ : -"],
  ["a?x=1", "relay_task_id may hold only letters, digits and . _ : -"],
  ["x".repeat(RELAY_TASK_ID_MAX_LENGTH + 1), "relay_task_id is longer than 128 characters"],
];
// The reference relay's ids are crypto.randomUUID(); ordinary names with dots and colons pass too.
const GOOD = [randomUUID(), "relay-task-1", "fed:relay.example_2", "...", "x".repeat(RELAY_TASK_ID_MAX_LENGTH)];

describe("relay_task_id is limited to a safe id alphabet", () => {
  it("relayTaskIdProblem names why an id is refused and accepts the reference relay's ids", () => {
    for (const [id, why] of BAD) expect(relayTaskIdProblem(id), id).toBe(why);
    for (const id of GOOD) expect(relayTaskIdProblem(id), id).toBeNull();
  });

  it("motebit_task refuses a bad id from the relay before any lookup, run or receipt", async () => {
    const h = await makeMotebit();
    const asked: string[] = [];
    h.m.relayTaskLookup = async (id) => (asked.push(id), { ok: true, requiredCapabilities: [] });
    for (const [id, why] of BAD) {
      const res = await h.call(relayPeer, "motebit_task", { prompt: "hello", relay_task_id: id });
      expect(res.isError, id).toBe(true);
      expect(res.content[0].text).toBe(`Invalid arguments for tool "motebit_task": ${why}`);
    }
    expect(asked).toEqual([]);
    expect(h.m.ledger.list({ limit: 100 })).toEqual([]);
    for (const id of GOOD) {
      const r = JSON.parse(stripIdentityTag(await h.text(relayPeer, "motebit_task", { prompt: "hello", relay_task_id: id })));
      expect(r).toMatchObject({ status: "completed", relay_task_id: id });
    }
    expect(asked).toEqual(GOOD);
  });

  it("the relay lookup never puts a bad id into the relay's URL", async () => {
    const polled: string[] = [];
    const client = { pollTask: async (_mid: string, id: string) => (polled.push(id), { ok: true, status: 200, body: { task: {} } }) } as unknown as RelayClient;
    const lookup = relayTaskLookup(client, "mote-1");
    expect(await lookup("..")).toEqual({ ok: false, why: 'relay_task_id may not be "." or ".."' });
    expect(await lookup(".")).toEqual({ ok: false, why: 'relay_task_id may not be "." or ".."' });
    expect(await lookup("t-1")).toEqual({ ok: true, requiredCapabilities: [] });
    expect(polled).toEqual(["t-1"]);
  });
});
