// docs/configuration.md is the settings list as the hosts read it: regenerate it with `npm run docs:config`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { SETTINGS } from "../../../src/settings/catalog.js";
import { configurationMarkdown } from "../../../src/settings/markdown.js";

const page = readFileSync(join(import.meta.dirname, "../../../docs/configuration.md"), "utf8");

it("docs/configuration.md is what npm run docs:config writes from src/settings (run it after changing a setting)", () => {
  expect(page).toBe(configurationMarkdown());
});

it("has one row per setting, each naming its environment name and config key", () => {
  const rows = page.split("\n").filter((l) => l.startsWith("| `") || l.startsWith("| —"));
  expect(rows).toHaveLength(Object.keys(SETTINGS).length);
  for (const s of Object.values(SETTINGS)) {
    const row = rows.find((r) => r.startsWith(`| ${s.env === null ? "—" : `\`${s.env}\``} | ${s.key === null ? "—" : `\`${s.key}\``} |`));
    expect(row, `${s.env ?? s.key}`).toBeDefined();
  }
});
