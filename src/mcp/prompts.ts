import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import { echo } from "../bounded/echo.js";
import type { MotebitContext } from "./motebit-context.js";
import type { CallContext } from "./call-context.js";
import { inputRequiredResult, openRound, type Retry } from "./stateless/input-required.js";
import { toolContextFor } from "./tool-context.js";
import type { Principal } from "../principal.js";
import { isOwner } from "../principal.js";
import type { ServedPrompt } from "../tools/types.js";

const MAX_COMPLETIONS = 100;
const servedFor = (m: MotebitContext, p: Principal) => m.registry.prompts(p.kind);

interface PromptDef {
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  render(args: Record<string, string>): string;
}

const PROMPTS: PromptDef[] = [
  {
    name: "chat",
    description: "Talk with the motebit.",
    arguments: [{ name: "message", description: "What to say.", required: true }],
    render: (a) => a.message,
  },
  {
    name: "recall",
    description: "Ask the motebit what it remembers about a topic.",
    arguments: [
      { name: "query", description: "The topic.", required: true },
      { name: "limit", description: "How many memories (default 10).", required: false },
    ],
    render: (a) =>
      `Use motebit_recall with query ${JSON.stringify(a.query)}${a.limit ? ` and limit ${a.limit}` : ""}, then summarise what you remember.`,
  },
  {
    name: "reflect",
    description: "Ask the motebit to reflect on recent work and what it has learned.",
    arguments: [],
    render: () =>
      "Reflect on your recent tasks and memories: what went well, what failed, and what you should remember. Use motebit_recall and motebit_remember as needed.",
  },
];

export function listPrompts(m: MotebitContext, p: Principal) {
  const own = PROMPTS.map(({ name, description, arguments: args }) => ({ name, description, arguments: args }));
  const served = servedFor(m, p).map((s) => ({
    name: s.name,
    ...(s.title !== undefined && { title: s.title }),
    ...(s.description !== undefined && { description: s.description }),
    arguments: (s.arguments ?? []).map((a) => ({ name: a.name, ...(a.description !== undefined && { description: a.description }), required: a.required === true })),
  }));
  return [...own, ...served];
}

/** prompts/get. `retry`: a 2026-07-28 request's inputResponses and requestState (see input-required.ts). */
export async function getPrompt(m: MotebitContext, c: CallContext, name: unknown, rawArgs: unknown, retry?: Retry) {
  const def = PROMPTS.find((x) => x.name === name);
  const served = def ? undefined : servedFor(m, c.principal).find((x) => x.name === name);
  if (!def && !served) throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${echo(name)}`);
  const declared = def ? def.arguments : (served!.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true }));
  const strArgs = promptArguments(String(name), declared, rawArgs);
  if (served) {
    // Its state is bound to "prompts/get <name>", a subject no tool name can spell (no spaces), so neither replays the other's.
    const subject = `prompts/get ${served.name}`;
    const round = retry === undefined ? undefined : await openRound(m, c, subject, strArgs, retry);
    let out: Awaited<ReturnType<ServedPrompt["get"]>>;
    try {
      out = await served.get(strArgs, { signal: c.signal, ...toolContextFor(c, `prompt:${served.name}`, round) });
    } catch (e) {
      if (round?.needsInput) return inputRequiredResult(m, c, subject, strArgs, round);
      if (round?.missingCapability) throw round.missingCapabilityError();
      throw e;
    }
    // A prompt that caught the rejection of its question still waits for the answer.
    if (round?.needsInput) return inputRequiredResult(m, c, subject, strArgs, round);
    const description = out.description ?? served.description;
    return { ...(description !== undefined && { description }), messages: out.messages };
  }
  return {
    description: def!.description,
    messages: [{ role: "user", content: { type: "text", text: def!.render(strArgs) } }],
  };
}

/** completion/complete for a prompt argument: the module's own completer, if it has one. */
export async function completePromptArgument(m: MotebitContext, p: Principal, name: string, argument: string, value: string): Promise<string[]> {
  const served: ServedPrompt | undefined = servedFor(m, p).find((x) => x.name === name);
  if (!served?.complete || !(served.arguments ?? []).some((a) => a.name === argument)) return [];
  return (await served.complete(argument, value)).map(String).slice(0, MAX_COMPLETIONS);
}

function promptArguments(name: string, declared: { name: string; required: boolean }[], rawArgs: unknown): Record<string, string> {
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  if (typeof args !== "object" || Array.isArray(args)) throw new RpcError(INVALID_PARAMS, "prompt arguments must be an object");
  const def = { name, arguments: declared };
  const strArgs: Record<string, string> = {};
  for (const a of def.arguments) {
    const v = args[a.name];
    if (v === undefined) {
      if (a.required) throw new RpcError(INVALID_PARAMS, `Prompt "${echo(def.name)}" needs the argument "${a.name}"`);
      continue;
    }
    if (typeof v !== "string") throw new RpcError(INVALID_PARAMS, `Prompt argument "${a.name}" must be a string`);
    strArgs[a.name] = v;
  }
  return strArgs;
}
