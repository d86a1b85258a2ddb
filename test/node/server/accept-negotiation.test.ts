import { describe, expect, it } from "vitest";
import { responseMode } from "../../../src/server/mcp-request.js";

describe("Accept → JSON or SSE", () => {
  it.each([
    [null, "json"],
    ["application/json, text/event-stream", "json"],
    ["text/event-stream, application/json", "json"],
    ["application/json", "json"],
    ["*/*", "json"],
    ["text/event-stream", "sse"],
    ["text/event-stream, application/json;q=0.5", "sse"],
    ["application/json;q=0.2, text/event-stream;q=0.9", "sse"],
    ["text/event-stream, */*;q=0.1", "sse"],
    ["text/*", "sse"],
    ["text/html", null],
    ["application/json;q=0, text/plain", null],
    ["application/json;q=0, */*", "sse"],
  ])("%s → %s", (accept, mode) => {
    expect(responseMode(accept)).toBe(mode);
  });
});
