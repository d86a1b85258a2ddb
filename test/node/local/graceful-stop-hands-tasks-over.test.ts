// A graceful stop (SIGTERM, SIGINT, stdin end) lets go of the leases of the tasks still running, so the next start
// resumes them at once; a SIGKILL leaves its leases held, and the next start waits for them to lapse (issue 30).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync as Database } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASK_LEASE_MS } from "../../../src/mcp/engine/mcp-tasks.js";
import { BIN, cleanEnv, freePort, initMotebit, REPO, startHttpServe, tempDir } from "./helpers/local-cli.js";
import { postStateless } from "../helpers/stateless-post.js";
import { statelessMeta, TASKS } from "../../shared/stateless-request.js";

const EXAMPLE_TOOLS = join(REPO, "examples/tools/index.ts");
const META = statelessMeta(TASKS);

interface Serve {
  child: ChildProcessWithoutNullStreams;
  call(method: string, params: Record<string, unknown>): Promise<{ result?: Record<string, unknown>; error?: { message: string } }>;
  exited: Promise<number | null>;
}

function serve(identity: string): Serve {
  const child = spawn(process.execPath, [BIN, "serve", "--identity", identity, "--tools", EXAMPLE_TOOLS], { cwd: REPO, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
  let buffered = "";
  let next = 1;
  const waiting = new Map<number, (m: never) => void>();
  child.stdout.on("data", (c) => {
    buffered += c;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) !== -1) {
      const m = JSON.parse(buffered.slice(0, nl)) as { id?: number };
      buffered = buffered.slice(nl + 1);
      if (typeof m.id === "number") waiting.get(m.id)?.(m as never);
    }
  });
  child.stderr.resume();
  return {
    child,
    exited: new Promise((r) => child.on("close", r)),
    call: (method, params) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } }) + "\n");
      }),
  };
}

async function startTask(s: Serve, ms: number): Promise<string> {
  const a = await s.call("tools/call", { name: "motebit_task", arguments: { prompt: String(ms), required_capabilities: ["slow"] } });
  expect(a.result?.resultType, JSON.stringify(a)).toBe("task");
  return a.result!.taskId as string;
}

describe("a graceful stop hands running tasks to the next start", () => {
  const tmp = tempDir();
  let identity: string;
  const row = (taskId: string, dir = tmp.dir) => {
    const db = new Database(join(dir, ".motebit", "motebit.sqlite"), { readOnly: true });
    try {
      return { ...(db.prepare("SELECT status, lease_owner, lease_expires FROM mcp_tasks WHERE task_id = ?").get(taskId) as { status: string; lease_owner: string | null; lease_expires: number }) };
    } finally {
      db.close();
    }
  };
  beforeAll(async () => {
    identity = await initMotebit(tmp.dir);
  });
  afterAll(() => tmp.cleanup());

  for (const stop of ["SIGTERM", "SIGINT", "stdin end"] as const) {
    it(`${stop}: the running task's lease is let go, and the next start finishes it at once`, async () => {
      const first = serve(identity);
      const taskId = await startTask(first, 1_500);
      await new Promise((r) => setTimeout(r, 300));
      if (stop === "stdin end") first.child.stdin.end();
      else first.child.kill(stop);
      expect(await first.exited).toBe(0);
      expect(row(taskId)).toEqual({ status: "working", lease_owner: null, lease_expires: 0 });

      const started = Date.now();
      const second = serve(identity);
      let status = "working";
      let result: Record<string, unknown> | undefined;
      while (status === "working" && Date.now() - started < TASK_LEASE_MS) {
        await new Promise((r) => setTimeout(r, 100));
        const got = (await second.call("tasks/get", { taskId })).result!;
        status = got.status as string;
        result = got.result as Record<string, unknown> | undefined;
      }
      // Well before a lease could have lapsed: the task was taken at the start, not after 15 s.
      expect(status).toBe("completed");
      expect(Date.now() - started).toBeLessThan(TASK_LEASE_MS / 2);
      expect((result!.content as { text: string }[])[0].text).toContain('"result":"waited 1500ms"');
      second.child.stdin.end();
      expect(await second.exited).toBe(0);
    });
  }

  it("SIGKILL: the lease stays held, so the next start waits for it to lapse", async () => {
    const first = serve(identity);
    const taskId = await startTask(first, 1_500);
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill("SIGKILL");
    await first.exited;
    const r = row(taskId);
    expect(r.status).toBe("working");
    expect(r.lease_owner).not.toBeNull();
    expect(r.lease_expires).toBeGreaterThan(Date.now());
  });

  it("serve over http, SIGTERM: the running task's lease is let go", async () => {
    // A service motebit: a peer's motebit_task needs no owner's approval.
    const service = tempDir();
    const serviceIdentity = await initMotebit(service.dir, ["--type", "service", "--name", "graceful-http"]);
    const config = join(service.dir, "http.json");
    const token = "graceful-stop-http-token";
    writeFileSync(config, JSON.stringify({ authToken: token }));
    const server = await startHttpServe(["--identity", serviceIdentity, "--tools", EXAMPLE_TOOLS, "--config", config, "--serve-port", String(await freePort())]);
    const res = await postStateless(server.url, "tools/call", { name: "motebit_task", arguments: { prompt: "5000", required_capabilities: ["slow"] } }, { auth: `Bearer ${token}`, caps: TASKS });
    const taskId = res.body.result!.taskId as string;
    await new Promise((r) => setTimeout(r, 300));
    expect(await server.stop()).toBe(0);
    expect(row(taskId, service.dir)).toEqual({ status: "working", lease_owner: null, lease_expires: 0 });
    service.cleanup();
  });
});
