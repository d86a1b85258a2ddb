// The Node host's tools for the evidence runs: the examples, plus one tool that asks the client (elicitation), so
// the starvation check can fill a caller's server-to-client waits the way the outside attack did; and one that logs
// each execution (its start and its end) to EVIDENCE_RUN_LOG, so the task-kill run can count runs per task.
import { appendFileSync } from "node:fs";
import type { ServedTool } from "../../src/tools/types.js";
import examples from "../../examples/tools/index.ts";
import { loggedStep } from "./logged-step.ts";

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

const loggedStepToFile = loggedStep((line) => {
  if (process.env.EVIDENCE_RUN_LOG) appendFileSync(process.env.EVIDENCE_RUN_LOG, `${line}\n`);
});

const tools: ServedTool[] = [...examples, askUser, loggedStepToFile];
export default tools;
