// `npm start` (scripts/start-edge.mjs) on a port that is taken says so in one line, with how to pick another,
// before wrangler and workerd start; `--port N` is read as the port (not passed on to wrangler as a second one).
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToCompletion } from "../helpers/child-process.js";
import { REPO } from "../local/helpers/local-cli.js";

let busy: Server;
let port: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
  port = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => busy.close(() => r())));

const start = (args: string[], env: Record<string, string> = {}) =>
  runToCompletion(process.execPath, [join(REPO, "scripts/start-edge.mjs"), ...args], { cwd: REPO, env: { ...process.env, PORT: "", ...env }, timeoutMs: 20_000 });

describe("npm start on a taken port", () => {
  it("PORT=<taken>, --port <taken> and --port=<taken>: exit 1, one line naming the port and the way out", async () => {
    const line = `motebit-edge: 127.0.0.1:${port} is already in use (another npm start?): stop that one, or pick another port: PORT=${port + 1} npm start (or npm start -- --port ${port + 1})\n`;
    for (const r of [await start([], { PORT: String(port) }), await start(["--port", String(port)]), await start([`--port=${port}`], { PORT: "1" })]) {
      expect([r.code, r.stdout, r.stderr]).toEqual([1, "", line]);
    }
  });

  it("a --port that is not a port number: exit 2, one line", async () => {
    const r = await start(["--port", "87a"]);
    expect([r.code, r.stderr]).toEqual([2, 'motebit-edge: --port / PORT must be a port number from 0 to 65535, got "87a"\n']);
  });
});
