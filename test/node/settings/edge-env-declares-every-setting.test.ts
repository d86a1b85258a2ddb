// The Durable Object's env type (durable-objects/object-env.ts, which the Worker's EdgeEnv extends) declares every
// setting the edge reads, under the settings module's names.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { SETTINGS } from "../../../src/settings/catalog.js";

it("ObjectEnv names every setting the edge reads", () => {
  const env = readFileSync(new URL("../../../durable-objects/object-env.ts", import.meta.url), "utf8");
  const declared = new Set([...env.matchAll(/^\s+([A-Z][A-Z0-9_]+)\?:/gm)].map((m) => m[1]));
  const read = Object.values(SETTINGS)
    .filter((s) => s.host !== "local" && s.env !== null)
    .map((s) => s.env!);
  expect(read.length).toBeGreaterThan(20);
  expect(read.filter((name) => !declared.has(name))).toEqual([]);
});
