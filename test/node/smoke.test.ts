import { expect, it } from "vitest";
it("runs in node", () => { expect(typeof process.versions.node).toBe("string"); });
