// Example tools module: the default export is what `--tools` loads and what the edge serves by default.
// Platform-neutral on purpose (no node:* imports) so workerd can bundle it.

import type { ServedTool } from "../../src/tools/types.js";

const MAX_SLOW_MS = 60_000;

const echo: ServedTool = {
  definition: {
    name: "echo",
    description: "Returns the text it is given.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "Text to echo back." } },
      required: ["text"],
      additionalProperties: false,
    },
    risk: "R0_READ",
  },
  handler: (args) => ({ ok: true, data: String(args.text) }),
};

const wordCount: ServedTool = {
  definition: {
    name: "word_count",
    description: "Counts the whitespace-separated words in a text.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "Text to count." } },
      required: ["text"],
      additionalProperties: false,
    },
    risk: "R0_READ",
  },
  handler: (args) => {
    const text = String(args.text).trim();
    return { ok: true, data: { words: text === "" ? 0 : text.split(/\s+/).length } };
  },
};

const currentTime: ServedTool = {
  definition: {
    name: "current_time",
    description: "Returns the current time as an ISO-8601 UTC timestamp.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    risk: "R0_READ",
  },
  handler: () => ({ ok: true, data: new Date().toISOString() }),
};

const slow: ServedTool = {
  definition: {
    name: "slow",
    description: `Waits the given number of milliseconds (at most ${MAX_SLOW_MS}), then says so. Stops early when aborted.`,
    inputSchema: {
      type: "object",
      // A string is accepted too, so direct mode (prompt → first required string) can drive it: prompt "5000".
      properties: { ms: { type: ["integer", "string"], description: "How long to wait, in milliseconds." } },
      required: ["ms"],
      additionalProperties: false,
    },
    risk: "R1_DRAFT",
  },
  handler: (args, { signal }) => {
    const ms = typeof args.ms === "string" && /^\d+$/.test(args.ms) ? Number(args.ms) : args.ms;
    if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0 || ms > MAX_SLOW_MS) {
      return { ok: false, error: `ms must be a whole number of milliseconds from 0 to ${MAX_SLOW_MS}` };
    }
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener("abort", stop);
        resolve({ ok: true, data: `waited ${ms}ms` });
      };
      const timer = setTimeout(done, ms);
      // Honour the abort: free the timer and give up instead of finishing the wait.
      const stop = () => {
        clearTimeout(timer);
        resolve({ ok: false, error: "aborted" });
      };
      if (signal.aborted) stop();
      else signal.addEventListener("abort", stop, { once: true });
    });
  },
};

const readNote: ServedTool = {
  definition: {
    name: "read_note",
    description: "Reads one of the owner's notes (demo: returns a placeholder, reads nothing). Local only.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string", description: "Path of the note." } },
      required: ["path"],
      additionalProperties: false,
    },
    risk: "R0_READ",
    localOnly: true,
  },
  handler: (args) => ({ ok: true, data: `note ${JSON.stringify(String(args.path))}: (demo tool; no note was read)` }),
};

const tools: ServedTool[] = [echo, wordCount, currentTime, slow, readNote];
export default tools;
