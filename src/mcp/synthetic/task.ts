import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, refused } from "../tool-outcome.js";
import { isOwner, principalLabel } from "../../principal.js";
import { scopeAllows, verifyDelegationToken } from "../../protocol/index.js";
import { decide } from "../../policy/gate.js";
import { runTask } from "../../agent/task-runner.js";
import { aiTurnTools, publicContext } from "./ai-turn-context.js";
import { aiModules } from "./ai-modules.js";
import { toolContextFor } from "../tool-context.js";

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
      relay_task_id: { type: "string", description: "The relay's task id, signed into the receipt." },
      dispatch_token: { type: "string", description: "A task:dispatch admission token from the relay." },
    },
    required: ["prompt"],
  },
  risk: 3,
  // A long task is followed by handle for clients that negotiated tasks; the result is the same signed receipt.
  taskSupport: "optional",
  offered: always,
  async run(args, m, c) {
    const caps = (args.required_capabilities as string[] | undefined) ?? [];
    let delegatedScope: string | undefined;
    // docs/protocol.md §6 order: the delegation token first, then the dispatch token, then the work.
    if (args.delegation_token !== undefined) {
      const v = await verifyDelegationToken(args.delegation_token as string, {
        now: m.clock.now(),
        delegateId: m.motebitId,
        requiredCapabilities: caps,
      });
      if (!v.ok) return refused(v.error);
      delegatedScope = v.token.scope;
    }
    const relayTaskId = args.relay_task_id as string | undefined;
    const caller = principalLabel(c.principal);
    if (relayTaskId !== undefined) {
      // A relay retrying the same task gets the receipt it was already given: the work never runs twice.
      const earlier = m.ledger.findRelayTask(relayTaskId, caller);
      if (earlier) return okJson(earlier.receipt);
    }
    if (args.dispatch_token !== undefined) {
      if (m.verifyDispatchToken === null) return refused("Denied: this host does not accept dispatch tokens");
      const d = await m.verifyDispatchToken(args.dispatch_token as string);
      if (!d.ok) return refused(`Denied: dispatch token refused (${d.reason})`);
    }
    // Stages for a client that asked for progress: admitted, working, signed.
    const { progress } = toolContextFor(c, "motebit_task");
    progress(1, 3, "gate passed");
    const overHttp = !isOwner(c.principal);
    const common = {
      prompt: args.prompt as string,
      signer: m.signer,
      motebitId: m.motebitId,
      deviceId: m.deviceId,
      relayTaskId,
      delegatedScope,
      timeoutMs: m.taskTimeoutMs,
      clock: m.clock,
      invocationOrigin: overHttp ? ("agent-to-agent" as const) : ("user-tap" as const),
      memoriesFormed: 0,
      signal: c.signal,
    };
    let receipt;
    progress(2, 3, "tool running");
    if (m.llm !== null) {
      // AI mode: the AI SDK loads only here, so direct mode never pays for it.
      const { runAiTask } = await aiModules();
      const t = aiTurnTools(m, c, delegatedScope);
      receipt = await runAiTask({
        ...common,
        llm: m.llm,
        system: publicContext(m, c.principal),
        tools: t.tools,
        offered: t.offered,
        gate: t.gate,
        onToolCall: t.onToolCall,
        onTurn: t.recordTurn,
      });
    } else {
      const served = m.registry.list({ overHttp });
      // A delegation scopes the work itself, not only the capabilities named: only tools inside it may run.
      const tools = delegatedScope === undefined ? served : served.filter((t) => scopeAllows(delegatedScope, t.definition.name));
      receipt = await runTask({
        ...common,
        requiredCapabilities: caps,
        tools,
        gate: (toolName) =>
          decide({ toolName, risk: m.registry.riskOf(toolName), principal: c.principal, governance: m.governance }),
      });
    }
    m.ledger.append(receipt, caller);
    progress(3, 3, "receipt signed");
    return okJson(receipt);
  },
};
