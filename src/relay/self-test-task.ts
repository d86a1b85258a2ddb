// What the self-test asks for, shaped the way the reference relay routes: one served tool a relay may run,
// named in required_capabilities (the relay forwards nothing without one), and a prompt that tool can take.
import type { Motebit } from "../motebit.js";
import type { Principal } from "../principal.js";
import { taskGate } from "../agent/task-gate.js";
import { mapPromptToArgs } from "../tools/direct-mode.js";
import type { ServedTool } from "../tools/types.js";

export interface SelfTestTask {
  tool: string;
  prompt: string;
}

/** How the relay is served when it forwards: a verified peer (auth.ts gives it this shape). */
const RELAY_CALLER: Principal = { kind: "peer", callerId: "relay:self-test", via: "relay", trust: "verified" };
const DEFAULT_PROMPT = "motebit self-test";

/**
 * The first tool served over HTTP that the gate lets the relay run and that direct mode can drive with a prompt;
 * null when there is none (the self-test then says so instead of submitting a task nothing can run).
 */
export function selfTestTask(m: Pick<Motebit, "registry" | "governance">): SelfTestTask | null {
  // The gate the relay's task will meet (src/agent/task.ts).
  const gate = taskGate(m, RELAY_CALLER);
  for (const tool of m.registry.list("peer")) {
    const name = tool.definition.name;
    if (gate(name).outcome !== "allow") continue;
    const prompt = promptFor(tool);
    if (prompt !== null) return { tool: name, prompt };
  }
  return null;
}

/** The schema's own example, default or first allowed value for the parameter the prompt fills, else a plain phrase. */
function promptFor(tool: ServedTool): string | null {
  const mapped = mapPromptToArgs(tool, DEFAULT_PROMPT);
  if ("error" in mapped) return null;
  const key = Object.keys(mapped.args)[0];
  const props = tool.definition.inputSchema.properties as Record<string, Record<string, unknown>> | undefined;
  const prop = props?.[key] ?? {};
  const candidates = [...(Array.isArray(prop.examples) ? prop.examples : []), prop.default, ...(Array.isArray(prop.enum) ? prop.enum : [])];
  const shaped = candidates.find((v): v is string => typeof v === "string" && v !== "");
  return shaped ?? DEFAULT_PROMPT;
}
