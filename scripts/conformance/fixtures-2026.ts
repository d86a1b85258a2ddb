// The conformance suite's 2026-07-28 fixtures: tools that ask the client for input (answered through
// input-required results), one that needs a capability, one that logs. Test-only, like fixtures.ts.
import type { ServedTool, ToolContext } from "../../src/tools/types.js";

const noArgs = { type: "object", properties: {} } as const;
const text = (t: string) => ({ ok: true as const, content: [{ type: "text" as const, text: t }] });
const tool = (name: string, description: string, handler: ServedTool["handler"]): ServedTool => ({
  definition: { name, description, inputSchema: noArgs, risk: "R0_READ" },
  handler,
});

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
];
