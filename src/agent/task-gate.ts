// What a task or an AI turn puts in front of every tool: admit() (src/policy/admission) bound to the caller, the
// delegation scope and the motebit's governance. Direct and AI mode, motebit_task, motebit_query and the relay's
// tasks build it here; it decides nothing itself.
import type { Principal } from "../principal.js";
import { admit, type Admission, type Moment } from "../policy/admission/admit.js";
import { servedAudience } from "../policy/admission/audience.js";
import type { Governance } from "../policy/governance.js";
import type { ToolRegistry } from "../tools/registry.js";

export interface GatedMotebit {
  readonly registry: Pick<ToolRegistry, "riskOf" | "get">;
  readonly governance: Governance;
}

export type ToolGate = (toolName: string) => Admission;

export function taskGate(m: GatedMotebit, principal: Principal, delegatedScope?: string, moment: Moment = "task-step"): ToolGate {
  return (toolName) => {
    // The owner sees every served tool, so this finds any; an unknown name has no risk level and is denied.
    const served = m.registry.get(toolName, "owner");
    const tool = {
      name: toolName, risk: m.registry.riskOf(toolName), audience: served ? servedAudience(served.definition) : ("both" as const), oauthScope: "motebit:tools" as const,
    };
    return admit({ moment, principal, tool, governance: m.governance, delegatedScope });
  };
}

/** What a model may be offered: what admit() allows at the moment "model-offer". */
export function offerable(m: GatedMotebit, principal: Principal, delegatedScope: string | undefined, toolName: string): boolean {
  return taskGate(m, principal, delegatedScope, "model-offer")(toolName).outcome === "allow";
}
