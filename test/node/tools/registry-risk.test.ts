import { expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";

it("riskOf reads the declared level and is null when it is missing, unknown or the tool does not exist", () => {
  const t = (name: string, risk?: unknown) => ({ definition: { name, description: "d", inputSchema: { type: "object" }, risk }, handler: () => ({ ok: true, data: 1 }) });
  const reg = ToolRegistry.fromModule([t("named", "R2_WRITE"), t("numbered", 4), t("none"), t("junk", "dangerous")]);
  expect(reg.riskOf("named")).toBe(2);
  expect(reg.riskOf("numbered")).toBe(4);
  expect(reg.riskOf("none")).toBeNull();
  expect(reg.riskOf("junk")).toBeNull();
  expect(reg.riskOf("absent")).toBeNull();
});
