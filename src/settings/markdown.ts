// docs/configuration.md, written from the settings list (npm run docs:config) and checked against it by
// test/node/settings/configuration-page.test.ts, so the page cannot drift from what the hosts read.
import { SETTINGS, type Setting } from "./catalog.js";

const HOST_NOTE: Record<Setting<unknown>["host"], string> = { both: "", edge: " Edge only.", local: " motebit-local only." };
const SECRET_NOTE: Record<Setting<unknown>["host"], string> = {
  both: " Secret: `wrangler secret put` at the edge; `chmod 600` a config file holding it.",
  edge: " Secret: `wrangler secret put`.",
  local: " Secret: `chmod 600` the config file.",
};

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function configurationMarkdown(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting<unknown>>).map((s) => {
    const env = s.env === null ? "—" : `\`${s.env}\``;
    const key = s.key === null ? "—" : `\`${s.key}\``;
    const secret = s.secret ? SECRET_NOTE[s.host] : "";
    const bounds = s.bounds ? ` From ${s.bounds[0]} to ${s.bounds[1]}.` : "";
    return `| ${env} | ${key} | ${cell(s.defaultText)} | ${cell(s.meaning + bounds + HOST_NOTE[s.host] + secret)} |`;
  });
  return [
    "# Configuration",
    "",
    "<!-- Generated from src/settings/catalog.ts by `npm run docs:config`; a test fails when they disagree. -->",
    "",
    "Every setting of both hosts. The edge reads the environment name (wrangler vars and secrets); `motebit-local`",
    "reads the environment and its `--config` JSON file, where a setting sits under its config key or under its",
    "environment name. The environment wins over the file. Blank environment values count as unset. A bad value",
    "stops start-up with one line naming where it came from (`MOTEBIT_RATE_LIMIT must be …`,",
    "`config file /x/motebit.json: rateLimit must be …`).",
    "",
    "| env name | config key | default | meaning |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}
