// A memory tool that arrives while the embedder's model is still loading (motebit-local's sentence encoder, in
// the first second or so after start) waits for it, and tells a client that asked for progress that it is waiting.
import type { MotebitContext } from "../motebit-context.js";
import type { CallContext } from "../call-context.js";
import { toolContextFor } from "../tool-context.js";

export async function embedderReady(m: MotebitContext, c: CallContext, tool: string): Promise<void> {
  const e = m.memory.embedder;
  if (!e.whenReady) return;
  const { progress } = toolContextFor(c, tool);
  // Progress must grow: the milliseconds waited so far, no total (a load's length is not known in advance).
  await e.whenReady((elapsedMs, message) => progress(elapsedMs, undefined, message));
}
