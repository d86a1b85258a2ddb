// The MCP conformance suite's fixtures (tools `test_*`, resources `test://…`, prompts `test_*`), named as the
// suite's own "everything" server names them, as a motebit tools module. Test-only: `npm run conformance`
// serves it on loopback; it is never part of a deployment. Platform-neutral, so workerd can bundle it.
import type { ServedPrompt, ServedResource, ServedTool } from "../../src/tools/types.js";
import { prompts2026, tools2026 } from "./fixtures-2026.ts";

// A 1×1 PNG and a tiny WAV: what the suite checks is the block's shape, not the pixels.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

const noArgs = { type: "object", properties: {} } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const tool = (
  name: string,
  description: string,
  handler: ServedTool["handler"],
  inputSchema: Record<string, unknown> = noArgs,
): ServedTool => ({ definition: { name, description, inputSchema, risk: "R0_READ" }, handler });

const text = (t: string) => ({ ok: true as const, content: [{ type: "text" as const, text: t }] });

async function elicitAndReport(ctx: Parameters<ServedTool["handler"]>[1], params: Record<string, unknown>, label: string) {
  try {
    const r = (await ctx.elicit(params)) as { action?: string; content?: unknown };
    return text(`${label}: action=${r.action}, content=${JSON.stringify(r.content ?? {})}`);
  } catch (e) {
    return text(`Elicitation not supported or error: ${(e as Error).message}`);
  }
}

export const tools: ServedTool[] = [
  tool("test_simple_text", "Tests simple text content response", () => text("This is a simple text response for testing.")),
  tool("test_image_content", "Tests image content response", () => ({
    ok: true,
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  })),
  tool("test_audio_content", "Tests audio content response", () => ({
    ok: true,
    content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
  })),
  tool("test_embedded_resource", "Tests embedded resource content response", () => ({
    ok: true,
    content: [
      { type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } },
    ],
  })),
  tool("test_multiple_content_types", "Tests response with multiple content types (text, image, resource)", () => ({
    ok: true,
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: PNG, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
      },
    ],
  })),
  tool("test_tool_with_logging", "Tests tool that emits log messages during execution", async (_args, ctx) => {
    for (const line of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
      ctx.log("info", line);
      await sleep(50);
    }
    return text("Tool with logging executed successfully");
  }),
  tool("test_tool_with_progress", "Tests tool that reports progress notifications", async (_args, ctx) => {
    for (const done of [0, 50, 100]) {
      ctx.progress(done, 100, `Completed step ${done} of 100`);
      await sleep(50);
    }
    return text("progress reported");
  }),
  tool("test_error_handling", "Tests error response handling", () => {
    throw new Error("This tool intentionally returns an error for testing");
  }),
  tool(
    "test_reconnection",
    // A motebit answers a call that sends nothing early with plain JSON, so there is no stream to close here.
    "Tests SSE polling (SEP-1699); this server answers it without a stream, which the suite accepts.",
    async () => {
      await sleep(100);
      return text("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.");
    },
  ),
  tool(
    "test_sampling",
    "Tests server-initiated sampling (LLM completion request)",
    async (args, ctx) => {
      try {
        const r = (await ctx.sample({
          messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }],
          maxTokens: 100,
        })) as { content?: { text?: string } };
        return text(`LLM response: ${r.content?.text ?? "No response"}`);
      } catch (e) {
        return text(`Sampling not supported or error: ${(e as Error).message}`);
      }
    },
    { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
  ),
  tool(
    "test_elicitation",
    "Tests server-initiated elicitation (user input request)",
    (args, ctx) =>
      elicitAndReport(
        ctx,
        {
          message: String(args.message),
          requestedSchema: {
            type: "object",
            properties: { response: { type: "string", description: "User's response" } },
            required: ["response"],
          },
        },
        "User response",
      ),
    { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
  ),
  tool("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034", (_args, ctx) =>
    elicitAndReport(
      ctx,
      {
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      },
      "Elicitation completed",
    ),
  ),
  tool("test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330", (_args, ctx) =>
    elicitAndReport(
      ctx,
      {
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      },
      "Elicitation completed",
    ),
  ),
  tool(
    "json_schema_2020_12_tool",
    "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
    (args) => text(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      // SEP-2106 (2026-07-28): composition, conditional and $anchor keywords are served as given.
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
  ),
];

export default [...tools, ...tools2026];

export const resources: ServedResource[] = [
  {
    uri: "test://static-text",
    name: "static-text",
    title: "Static Text Resource",
    description: "A static text resource for testing",
    mimeType: "text/plain",
    read: () => ({ text: "This is the content of the static text resource." }),
  },
  {
    uri: "test://static-binary",
    name: "static-binary",
    title: "Static Binary Resource",
    description: "A static binary resource (image) for testing",
    mimeType: "image/png",
    read: () => ({ blob: PNG }),
  },
  {
    uriTemplate: "test://template/{id}/data",
    name: "template",
    title: "Resource Template",
    description: "A resource template with parameter substitution",
    mimeType: "application/json",
    read: (_uri, vars) => ({ text: JSON.stringify({ id: vars.id, templateTest: true, data: `Data for ID: ${vars.id}` }) }),
  },
  {
    uri: "test://watched-resource",
    name: "watched-resource",
    title: "Watched Resource",
    description: "A resource that clients may subscribe to",
    mimeType: "text/plain",
    read: () => ({ text: "Watched resource content" }),
  },
];

export const prompts: ServedPrompt[] = [
  {
    name: "test_simple_prompt",
    title: "Simple Test Prompt",
    description: "A simple prompt without arguments",
    get: () => ({ messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] }),
  },
  {
    name: "test_prompt_with_arguments",
    title: "Prompt With Arguments",
    description: "A prompt with required arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
    get: (a) => ({
      messages: [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${a.arg1}', arg2='${a.arg2}'` } }],
    }),
  },
  {
    name: "test_prompt_with_embedded_resource",
    title: "Prompt With Embedded Resource",
    description: "A prompt that includes an embedded resource",
    arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    get: (a) => ({
      messages: [
        { role: "user", content: { type: "resource", resource: { uri: a.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  },
  {
    name: "test_prompt_with_image",
    title: "Prompt With Image",
    description: "A prompt that includes image content",
    get: () => ({
      messages: [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        { role: "user", content: { type: "text", text: "Please analyze the image above." } },
      ],
    }),
  },
  ...prompts2026,
];
