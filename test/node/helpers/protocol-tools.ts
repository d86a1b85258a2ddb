// A tools module that exercises the whole protocol: rich content, structuredContent, progress, logs, asking the
// client, waiting for cancellation; plus a resource template and a prompt with completions.
import type { ServedPrompt, ServedResource, ServedTool } from "../../../src/tools/types.js";

const noArgs = { type: "object", properties: {} };
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Signals a test can await: a tool that started waiting, and how its wait ended. */
export const waits = { started: [] as string[], ended: [] as string[] };

export const protocolTools: ServedTool[] = [
  {
    definition: { name: "picture", title: "A picture", description: "Text, then an image.", inputSchema: noArgs, risk: "R0_READ", annotations: { idempotentHint: true } },
    handler: () => ({ ok: true, content: [{ type: "text", text: "here it is" }, { type: "image", data: PNG, mimeType: "image/png" }] }),
  },
  {
    definition: { name: "image_only", description: "Only an image.", inputSchema: noArgs, risk: "R0_READ" },
    handler: () => ({ ok: true, content: [{ type: "image", data: PNG, mimeType: "image/png" }] }),
  },
  {
    definition: {
      name: "measure",
      description: "Structured output.",
      inputSchema: { type: "object", properties: { n: { type: ["integer", "string"] } }, required: ["n"] },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      risk: "R0_READ",
    },
    // "wrong" returns a string where the schema wants an integer; "none" returns no structuredContent.
    handler: (args) =>
      args.n === "none" ? { ok: true, data: "no structure" } : { ok: true, structuredContent: { n: args.n === "wrong" ? "seven" : Number(args.n) } },
  },
  {
    definition: { name: "broken_content", description: "Returns a block MCP does not know.", inputSchema: noArgs, risk: "R0_READ" },
    handler: () => ({ ok: true, content: [{ type: "video", data: "x" } as never] }),
  },
  {
    definition: { name: "report", description: "Reports progress and logs.", inputSchema: noArgs, risk: "R0_READ" },
    handler: async (_a, ctx) => {
      ctx.log("debug", "debug detail");
      ctx.log("info", "starting");
      for (const done of [1, 2, 3]) {
        ctx.progress(done, 3, `step ${done}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      ctx.log("warning", "nearly done");
      return { ok: true, data: "reported" };
    },
  },
  {
    definition: { name: "ask_user", description: "Asks the user for a colour.", inputSchema: noArgs, risk: "R0_READ" },
    handler: async (_a, ctx) => {
      try {
        const r = (await ctx.elicit({ message: "Favourite colour?", requestedSchema: { type: "object", properties: { colour: { type: "string" } } } })) as {
          action: string;
          content?: { colour?: string };
        };
        return { ok: true, data: `${r.action}:${r.content?.colour ?? ""}` };
      } catch (e) {
        return { ok: false, error: `cannot ask: ${(e as Error).message}` };
      }
    },
  },
  {
    definition: { name: "ask_model", description: "Asks the client's model.", inputSchema: noArgs, risk: "R0_READ" },
    handler: async (_a, ctx) => {
      const r = (await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 })) as { content: { text: string } };
      return { ok: true, data: `model said ${r.content.text}` };
    },
  },
  {
    definition: {
      name: "wait",
      description: "Waits until aborted (or 20 s).",
      inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
      risk: "R1_DRAFT",
    },
    handler: (args, { signal }) =>
      new Promise((resolve) => {
        const label = String(args.label);
        waits.started.push(label);
        const timer = setTimeout(() => (waits.ended.push(`${label}:finished`), resolve({ ok: true, data: "finished" })), 20_000);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          waits.ended.push(`${label}:aborted`);
          resolve({ ok: false, error: "aborted" });
        });
      }),
  },
  {
    definition: { name: "change_settings", description: "An R2 tool (the approval band of a personal motebit).", inputSchema: noArgs, risk: "R2_WRITE" },
    handler: () => ({ ok: true, data: "settings changed" }),
  },
];

export const protocolResources: ServedResource[] = [
  {
    uriTemplate: "notes://{topic}",
    name: "note",
    description: "A note by topic.",
    mimeType: "text/plain",
    read: (_uri, v) => ({ text: `note about ${v.topic}` }),
    complete: (_variable, value) => ["deploys", "design", "dinner"].filter((t) => t.startsWith(value)),
  },
];

export const protocolPrompts: ServedPrompt[] = [
  {
    name: "greet",
    title: "Greet someone",
    arguments: [{ name: "who", required: true }],
    get: (a) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello ${a.who}` } }] }),
    complete: (_argument, value) => ["Ada", "Alan", "Grace"].filter((n) => n.startsWith(value)),
  },
  {
    name: "ask_topic",
    description: "Asks the user for a topic, then renders it.",
    async get(_a, ctx) {
      const r = (await ctx.elicit({ message: "Which topic?", requestedSchema: { type: "object", properties: { topic: { type: "string" } } } })) as {
        content?: { topic?: string };
      };
      return { messages: [{ role: "user", content: { type: "text", text: `Topic: ${r.content?.topic ?? "(none)"}` } }] };
    },
  },
];

/** The same module as a file `--tools` can load (plain JS), for the CLI tests. */
export const protocolToolsModuleSource = `
export default [
  { definition: { name: "report", description: "Reports progress and logs.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ" },
    handler: async (_a, ctx) => { ctx.log("info", "starting"); for (const d of [1, 2, 3]) { ctx.progress(d, 3, "step " + d); await new Promise((r) => setTimeout(r, 5)); } return { ok: true, data: "reported" }; } },
  { definition: { name: "wait", description: "Waits until aborted.", inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] }, risk: "R1_DRAFT" },
    handler: (args, { signal }) => new Promise((resolve) => { const t = setTimeout(() => resolve({ ok: true, data: "finished" }), 20000); signal.addEventListener("abort", () => { clearTimeout(t); resolve({ ok: false, error: "aborted" }); }); }) },
  { definition: { name: "change_settings", description: "An R2 tool.", inputSchema: { type: "object", properties: {} }, risk: "R2_WRITE" },
    handler: () => ({ ok: true, data: "settings changed" }) },
];
`;
