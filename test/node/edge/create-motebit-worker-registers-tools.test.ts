// createMotebitWorker hands the tools to the Durable Object through module state in the isolate: a bad tool array
// fails when the entry module loads, a missing registration is a clear start-up error, and one isolate serves
// one tool array.
import { expect, it, vi } from "vitest";

const shout = {
  definition: { name: "shout", description: "Upper-cases text.", inputSchema: { type: "object" }, risk: "R0_READ" },
  handler: (args: Record<string, unknown>) => ({ ok: true as const, data: String(args.text).toUpperCase() }),
};

async function fresh() {
  vi.resetModules(); // each case gets its own isolate-like module state
  const { createMotebitWorker } = await import("../../../worker/create-worker.js");
  const { servedTools } = await import("../../../durable-objects/served-tools.js");
  return { createMotebitWorker, servedTools };
}

it("registers the tools for the object and returns the Worker's fetch handler", async () => {
  const { createMotebitWorker, servedTools } = await fresh();
  const worker = createMotebitWorker({ tools: [shout] });
  expect(typeof worker.fetch).toBe("function");
  expect(typeof worker.scheduled).toBe("function"); // the relay cron's wake
  expect(servedTools().list("peer").map((t) => t.definition.name)).toEqual(["shout"]);
});

it("a bad tool array fails at once, naming the tool", async () => {
  const { createMotebitWorker } = await fresh();
  const bad = { ...shout, definition: { ...shout.definition, name: "motebit_shout" } };
  expect(() => createMotebitWorker({ tools: [bad] })).toThrow(/motebit_shout/);
});

it("without createMotebitWorker the object's start-up says what is missing", async () => {
  const { servedTools } = await fresh();
  expect(() => servedTools()).toThrow(/export default createMotebitWorker\(\{ tools \}\)/);
});

it("a second call with other tools is refused; the same array again is fine", async () => {
  const { createMotebitWorker } = await fresh();
  const tools = [shout];
  createMotebitWorker({ tools });
  expect(() => createMotebitWorker({ tools })).not.toThrow();
  expect(() => createMotebitWorker({ tools: [shout] })).toThrow(/called twice with different tools/);
});
