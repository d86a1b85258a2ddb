// The Node host's tools for the evidence runs: the examples, plus one tool that asks the client (elicitation), so
// the starvation check can fill a caller's server-to-client waits the way the outside attack did; and one that logs
// each execution (its start and its end) to EVIDENCE_RUN_LOG, so the task-kill run can count runs per task.
import { appendFileSync } from "node:fs";
import type { ServedTool } from "../../src/tools/types.js";
import examples from "../../examples/tools/index.js";

const askUser: ServedTool = {
  definition: { name: "ask_user", description: "Asks the client's user a question, then says what they answered.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ" },
  handler: async (_a, ctx) => {
    try {
      const r = (await ctx.elicit({ message: "Continue?", requestedSchema: { type: "object", properties: {} } })) as { action?: string };
      return { ok: true, data: `answered: ${r.action}` };
    } catch (e) {
      return { ok: false, error: `could not ask: ${(e as Error).message}` };
    }
  },
};

const logRun = (line: string) => {
  if (process.env.EVIDENCE_RUN_LOG) appendFileSync(process.env.EVIDENCE_RUN_LOG, `${line}\n`);
};

const loggedStep: ServedTool = {
  definition: {
    name: "logged_step",
    description: "Works for 100-600 ms and logs that it ran (evidence only).",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    risk: "R0_READ",
  },
  handler: async (args) => {
    const text = String(args.text);
    logRun(`start ${text}`);
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 500));
    logRun(`done ${text}`);
    return { ok: true, data: `did ${text}` };
  },
};

const tools: ServedTool[] = [...examples, askUser, loggedStep];
export default tools;
