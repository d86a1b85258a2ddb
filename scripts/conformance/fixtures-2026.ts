// The conformance suite's 2026-07-28 fixtures: tools (and a prompt) that ask the client for input (answered through
// input-required results), one that needs a capability, one that logs, one whose argument rides in an Mcp-Param
// header. Test-only, like fixtures.ts.
import type { ServedPrompt, ServedTool, ToolContext } from "../../src/tools/types.js";

const noArgs = { type: "object", properties: {} } as const;
const text = (t: string) => ({ ok: true as const, content: [{ type: "text" as const, text: t }] });
const tool = (
  name: string,
  description: string,
  handler: ServedTool["handler"],
  more: Partial<ServedTool["definition"]> = {},
): ServedTool => ({ definition: { name, description, inputSchema: noArgs, risk: "R0_READ", ...more }, handler });

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), reject(new Error("aborted"))), { once: true });
  });
const optional = { execution: { taskSupport: "optional" as const } };

const askName = (ctx: ToolContext, key: string, message = "What is your name?") =>
  ctx.elicit({ message, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, key);
const askModel = (ctx: ToolContext, key?: string) =>
  ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Say hello." } }], maxTokens: 50 }, key);

const answered = (r: unknown) => `answered: ${JSON.stringify(r)}`;

export const tools2026: ServedTool[] = [
  tool("test_missing_capability", "Needs the client's sampling capability", async (_a, ctx) => text(answered(await askModel(ctx)))),
  tool("test_streaming_elicitation", "Asks the user mid-call", async (_a, ctx) => text(answered(await askName(ctx, "user_name")))),
  tool("test_logging_tool", "Logs while it runs", async (_a, ctx) => {
    ctx.log("info", "test_logging_tool ran");
    return text("logged");
  }),
  tool("test_input_required_result_elicitation", "Asks the user's name", async (_a, ctx) => text(answered(await askName(ctx, "user_name")))),
  tool("test_input_required_result_sampling", "Asks the client's model", async (_a, ctx) => text(answered(await askModel(ctx, "sample")))),
  tool("test_input_required_result_list_roots", "Asks the client's roots", async (_a, ctx) => text(answered(await ctx.roots("roots")))),
  tool("test_input_required_result_request_state", "Asks the user, with request state", async (_a, ctx) => text(answered(await askName(ctx, "user_name")))),
  tool("test_input_required_result_tampered_state", "Asks the user; its state is signed", async (_a, ctx) => text(answered(await askName(ctx, "confirm")))),
  tool("test_input_required_result_multiple_inputs", "Asks user, model and roots at once", async (_a, ctx) => {
    const all = await Promise.all([askName(ctx, "user_name"), askModel(ctx, "sample"), ctx.roots("roots")]);
    return text(answered(all));
  }),
  tool("test_input_required_result_multi_round", "Asks twice, one question per round", async (_a, ctx) => {
    const name = await askName(ctx, "step1", "Step 1: What is your name?");
    const color = await ctx.elicit(
      {
        message: "Step 2: What is your favorite color?",
        requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
      },
      "step2",
    );
    return text(answered([name, color]));
  }),
  tool("test_input_required_result_capabilities", "Asks only through the capabilities the client declared", async (_a, ctx) => {
    // An undeclared capability rejects at once; the declared ones become input requests.
    const r = await Promise.allSettled([askName(ctx, "user_name"), askModel(ctx, "sample")]);
    return text(answered(r.map((x) => (x.status === "fulfilled" ? x.value : null))));
  }),
  // SEP-2243: `region` is mirrored in an Mcp-Param-Region header, which must agree with it (http-custom-header-server-validation).
  tool("test_header_param", "Echoes a region that clients mirror in the Mcp-Param-Region header", (a) => text(`region: ${String(a.region)}`), {
    inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } }, required: ["region"] },
  }),
  // The tasks extension's fixtures.
  tool("greet", "Greets, synchronously", (a) => text(`Hello, ${String(a.name)}!`), {
    inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  }),
  tool(
    "slow_compute",
    "Sleeps `seconds`, then answers; runs as a task",
    async (a, ctx) => {
      await sleep(Number(a.seconds ?? 0) * 1000, ctx.signal);
      return text(`computed after ${Number(a.seconds ?? 0)} s`);
    },
    { inputSchema: { type: "object", properties: { seconds: { type: "number" } } }, ...optional },
  ),
  tool(
    "failing_job",
    "Fails as a tool after about a second; only as a task",
    async (_a, ctx) => {
      await sleep(1000, ctx.signal);
      return { ok: false, error: "failing_job failed, as it always does" };
    },
    { execution: { taskSupport: "required" } },
  ),
  tool("confirm_delete", "Asks for confirmation, then deletes nothing", async (_a, ctx) => {
    const r = (await ctx.elicit({ message: "Delete?", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } }, "confirm")) as { action?: string };
    return text(`delete ${r.action === "accept" ? "confirmed" : "declined"}`);
  }, optional),
  tool("multi_input", "Asks two questions at once", async (_a, ctx) => {
    const schema = { type: "object", properties: { value: { type: "string" } } };
    const [a, b] = await Promise.all([ctx.elicit({ message: "First?", requestedSchema: schema }, "first"), ctx.elicit({ message: "Second?", requestedSchema: schema }, "second")]);
    return text(answered([a, b]));
  }, optional),
];

export const prompts2026: ServedPrompt[] = [
  {
    name: "test_input_required_result_prompt",
    description: "Asks the user which context to use, then renders it (input-required-result-non-tool-request)",
    async get(_a, ctx) {
      const r = (await ctx.elicit(
        {
          message: "What context should the prompt use?",
          requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
        },
        "user_context",
      )) as { content?: { context?: unknown } };
      return { messages: [{ role: "user", content: { type: "text", text: `Context: ${String(r.content?.context)}` } }] };
    },
  },
];
