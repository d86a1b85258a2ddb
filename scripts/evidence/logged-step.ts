// The evidence runs' counted tool: works for 100-600 ms and logs each execution's start and end through `log`
// (a file on the Node host, the Worker's console at the edge), so a scenario can count runs per task.
import type { ServedTool } from "../../src/tools/types.js";

/** What starts each of its lines in the Worker's console at the edge. */
export const RUN_LOG_PREFIX = "motebit-evidence-run ";

export function loggedStep(log: (line: string) => void): ServedTool {
  return {
    definition: {
      name: "logged_step",
      description: "Works for 100-600 ms and logs that it ran (evidence only).",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      risk: "R0_READ",
    },
    handler: async (args) => {
      const text = String(args.text);
      log(`start ${text}`);
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 500));
      log(`done ${text}`);
      return { ok: true, data: `did ${text}` };
    },
  };
}
