#!/usr/bin/env node
// The published CLI is the built bundle (built by `prepare`: on `npm ci` in the repository and on `npm pack`).
import { nodeFloorWarning } from "./node-floor.js";

// For a person at a terminal; piped stderr (MCP clients, scripts, tests) stays exactly the command's own.
if (process.stderr.isTTY) process.stderr.write(nodeFloorWarning());
await import("../dist/cli.js");
