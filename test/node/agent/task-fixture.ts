// Shared setup for task-runner tests: a real signer, the example tools and a gate over real governance.

import exampleTools from "../../../examples/tools/index.js";
import { taskGate } from "../../../src/agent/task-gate.js";
import { DEFAULT_SERVICE_GOVERNANCE, type Governance } from "../../../src/policy/governance.js";
import { OWNER, type Principal } from "../../../src/principal.js";
import type { Clock } from "../../../src/ports.js";
import { createSigner, sovereignMotebitId, type Signer } from "../../../src/protocol/index.js";
import { runTask, type RunTaskInput } from "../../../src/agent/task-runner.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import type { ServedTool } from "../../../src/tools/types.js";

export const SEED = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
export const registry = ToolRegistry.fromModule(exampleTools);

let signer: Signer | undefined;
export async function fixtureSigner(): Promise<Signer> {
  return (signer ??= await createSigner(SEED));
}

/** A clock that advances 7 ms per reading, so timestamps are predictable. */
export function steppingClock(start = 1_700_000_000_000): Clock {
  let t = start - 7;
  return { now: () => (t += 7) };
}

/** The real gate over the risks the given tools declare. */
export function gateFor(principal: Principal, tools: ServedTool[], governance: Governance = DEFAULT_SERVICE_GOVERNANCE) {
  return taskGate({ registry: ToolRegistry.fromModule(tools), governance }, principal);
}

export async function task(over: Partial<RunTaskInput> & { principal?: Principal } = {}) {
  const s = await fixtureSigner();
  const { principal = OWNER, ...rest } = over;
  const tools = over.tools ?? registry.list("peer");
  return runTask({
    prompt: "hello world",
    tools,
    gate: gateFor(principal, tools),
    signer: s,
    motebitId: await sovereignMotebitId(s.publicKeyHex),
    deviceId: "device-1",
    timeoutMs: 5_000,
    clock: steppingClock(),
    ...rest,
  });
}
