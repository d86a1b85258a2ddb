#!/usr/bin/env node
// The published CLI is the built bundle (built by `prepare`: on `npm ci` in the repository and on `npm pack`).
import { nodeFloorError } from "./node-floor.js";

// Checked before the bundle loads: on an older Node its first import (node:sqlite) would fail with a stack instead.
const floor = nodeFloorError();
if (floor) {
  process.stderr.write(floor);
  process.exit(1);
}
await import("../dist/cli.js");
