import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, refused } from "../tool-outcome.js";
import { isOwner, principalLabel } from "../../principal.js";
import { scopeAllows, verifyDelegationToken } from "../../protocol/index.js";
import { decide } from "../../policy/gate.js";
import { failed, runTask, signTaskReceipt } from "../../agent/task-runner.js";
import { whyNotRunNow } from "../run-check.js";
import { aiTurnTools, publicContext, turnMemories } from "./ai-turn-context.js";
import { aiModules } from "./ai-modules.js";
import { toolContextFor } from "../tool-context.js";

export const RELAY_TASK_ID_REFUSAL = "Denied: relay_task_id is accepted only from the relay or with a valid dispatch_token";

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
  signsEveryOutcome: true,
  async run(args, m, c) {
    const caller = principalLabel(c.principal);
    const overHttp = !isOwner(c.principal);
    const origin = overHttp ? ("agent-to-agent" as const) : ("user-tap" as const);
    // Work accepted earlier (a resumed or long task) whose caller lost its standing, or past the attempt cap:
    // nothing runs, and the signed receipt says why. No relay_task_id is bound: nothing vouched for it.
    const stop = whyNotRunNow(m, c);
    if (stop !== null) {
      const base = { prompt: String(args.prompt), signer: m.signer, motebitId: m.motebitId, deviceId: m.deviceId, clock: m.clock, invocationOrigin: origin };
      const receipt = await signTaskReceipt(base, failed(`Error: not run: ${stop}`), m.clock.now());
      m.ledger.append(receipt, caller);
      return okJson(receipt);
    }
    let caps = (args.required_capabilities as string[] | undefined) ?? [];
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
    // The dispatch token before anything is answered from the ledger: a forged one learns nothing.
    if (args.dispatch_token !== undefined) {
      if (m.verifyDispatchToken === null) return refused("Denied: this host does not accept dispatch tokens");
      const d = await m.verifyDispatchToken(args.dispatch_token as string, c.principal);
      if (!d.ok) return refused(`Denied: dispatch token refused (${d.reason})`);
    }
    if (relayTaskId !== undefined) {
      // A relay task id is signed into the receipt only when the relay vouches for it: it asks, or admitted the work.
      const fromRelay = c.principal.kind === "peer" && c.principal.via === "relay";
      if (!fromRelay && args.dispatch_token === undefined) return refused(RELAY_TASK_ID_REFUSAL);
      // A relay retrying the same task gets the receipt it was already given: the work never runs twice.
      const earlier = m.ledger.findRelayTask(relayTaskId, caller);
      if (earlier) return okJson(earlier.receipt);
    }
    // The reference relay forwards {prompt, relay_task_id} only: what the submitter asked for is in its task record.
    let note: string | undefined;
    if (relayTaskId !== undefined && caps.length === 0 && c.principal.kind === "peer" && c.principal.via === "relay") {
      const found = m.relayTaskLookup === null ? { ok: false as const, why: "this motebit runs no relay loop (syncUrl) to ask" } : await m.relayTaskLookup(relayTaskId);
      if (found.ok) caps = found.requiredCapabilities;
      else note = `Note: the relay's record of task ${relayTaskId} could not be read (${found.why}); the tool was chosen by the default rule.`;
    }
    // Stages for a client that asked for progress: admitted, working, signed.
    const { progress } = toolContextFor(c, "motebit_task");
    progress(1, 3, "gate passed");
    const common = {
      prompt: args.prompt as string,
      signer: m.signer,
      motebitId: m.motebitId,
      deviceId: m.deviceId,
      relayTaskId,
      delegatedScope,
      timeoutMs: m.taskTimeoutMs,
      clock: m.clock,
      invocationOrigin: origin,
      signal: c.signal,
      note,
      standing: () => whyNotRunNow(m, c),
    };
    let receipt;
    progress(2, 3, "tool running");
    if (m.llm !== null) {
      // AI mode: the AI SDK loads only here, so direct mode never pays for it. The turn's audit rows are written
      // with the receipt, in one transaction; a turn that throws still leaves its rows.
      const { runAiTask } = await aiModules();
      const audit = m.audit.batch();
      const t = aiTurnTools(m, c, delegatedScope, audit);
      // The capabilities asked for are said to the model and offered first.
      const asked = caps.length > 0 ? `\nThe submitter asked for: ${caps.join(", ")}. Use ${caps[0]} for this task.` : "";
      const offered = [...t.offered.filter((n) => caps.includes(n)), ...t.offered.filter((n) => !caps.includes(n))];
      const signed = await runAiTask({
        ...common,
        llm: m.llm,
        system: publicContext(m, c.principal) + asked,
        tools: t.tools,
        offered,
        gate: t.gate,
        onToolCall: t.onToolCall,
        onTurn: t.recordTurn,
        log: t.log,
        // As in motebit_query: the turn's facts go to the caller's scope; only the owner's count (product document).
        memories: { formation: turnMemories(m, c.principal), counted: !overHttp },
      }).catch((e: unknown) => {
        audit.commit();
        throw e;
      });
      audit.commit(() => m.ledger.append(signed, caller));
      receipt = signed;
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
      m.ledger.append(receipt, caller);
    }
    progress(3, 3, "receipt signed");
    return okJson(receipt);
  },
};
