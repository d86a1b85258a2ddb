// npm run docs:config: writes docs/configuration.md from src/settings (the one list of settings).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { configurationMarkdown } from "../src/settings/markdown.js";

const page = join(import.meta.dirname, "..", "docs", "configuration.md");
mkdirSync(dirname(page), { recursive: true });
writeFileSync(page, configurationMarkdown());
process.stdout.write(`wrote ${page}\n`);
