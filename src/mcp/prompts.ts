import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import { echo } from "../protocol/echo.js";

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

export function listPrompts() {
  return PROMPTS.map(({ name, description, arguments: args }) => ({ name, description, arguments: args }));
}

export function getPrompt(name: unknown, rawArgs: unknown) {
  const def = PROMPTS.find((p) => p.name === name);
  if (!def) throw new RpcError(INVALID_PARAMS, `Unknown prompt: ${echo(name)}`);
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  if (typeof args !== "object" || Array.isArray(args)) throw new RpcError(INVALID_PARAMS, "prompt arguments must be an object");
  const strArgs: Record<string, string> = {};
  for (const a of def.arguments) {
    const v = args[a.name];
    if (v === undefined) {
      if (a.required) throw new RpcError(INVALID_PARAMS, `Prompt "${def.name}" needs the argument "${a.name}"`);
      continue;
    }
    if (typeof v !== "string") throw new RpcError(INVALID_PARAMS, `Prompt argument "${a.name}" must be a string`);
    strArgs[a.name] = v;
  }
  return {
    description: def.description,
    messages: [{ role: "user", content: { type: "text", text: def.render(strArgs) } }],
  };
}
