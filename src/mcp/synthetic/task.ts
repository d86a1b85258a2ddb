// motebit_task over MCP: the arguments and the call's principal, signal, standing and progress handed to the
// task orchestration (src/agent/task.ts); a receipt is the tool's JSON result, a refusal its error.
import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, refused } from "../tool-outcome.js";
import { toolContextFor } from "../tool-context.js";
import { runMotebitTask, type MotebitTaskArgs } from "../../agent/task.js";
import { LOG_META_KEY } from "../../log/log-store.js";
import { recordRefusal } from "../../telemetry/admission-span.js";

export const taskTool: SyntheticTool = {
  name: "motebit_task",
  description:
    "Submits a prompt for autonomous execution and returns an ExecutionReceipt signed with this motebit's Ed25519 key (verifiable offline). Optional delegation_token (JSON) scopes the work; relay_task_id is bound into the signature.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", description: "What to do." },
      delegation_token: { type: "string", description: "A signed DelegationToken, as a JSON string." },
      required_capabilities: { type: "array", items: { type: "string" }, description: "Capabilities the task needs." },
      relay_task_id: { type: "string", description: "The relay's task id, signed into the receipt: [A-Za-z0-9._:-], at most 128 characters, not \".\" or \"..\"." },
      dispatch_token: { type: "string", description: "A task:dispatch admission token from the relay." },
    },
    required: ["prompt"],
  },
  risk: 3,
  // A long task is followed by handle for clients that negotiated tasks; the result is the same signed receipt.
  taskSupport: "optional",
  audience: "both",
  offered: always,
  signsEveryOutcome: true,
  async run(args, m, c) {
    // The arguments were checked against inputSchema before run().
    const answer = await runMotebitTask(m, args as unknown as MotebitTaskArgs, {
      principal: c.principal,
      signal: c.signal,
      standing: () => c.view.stop,
      standingNow: () => c.view.stopNow(),
      progress: toolContextFor(c, "motebit_task").progress,
      run: c.call.runRecord,
      admit: c.admit?.("motebit_task", args),
      trace: c.trace,
    });
    if (!answer.ok) {
      recordRefusal(c.trace, "task", answer.refusal);
      return refused(answer.refusal);
    }
    // The receipt's own wire is unchanged: its place in the transparency log rides beside it (docs/protocol.md §10).
    const proof = m.ledger.proofFor(answer.receipt);
    return okJson(answer.receipt, proof === null ? undefined : { [LOG_META_KEY]: proof });
  },
};
