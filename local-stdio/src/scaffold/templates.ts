// The files `motebit-local create` writes (besides motebit.md, motebit.key and .dev.vars): a project of the
// user's own that serves src/tools.ts from the edge (`npm start`, `npm run deploy`) or from this machine.

export interface ProjectSettings {
  /** npm package name and Worker name. */
  name: string;
  type: "personal" | "service";
  /** The npm specs of motebit-edge and motebit-local: the published version range, or file: paths to local packages. */
  edgeSpec: string;
  localSpec: string;
  /** allowScripts keys (npm names a linked folder by its file: path from the project) whose `prepare` must not run:
   *  a checkout's packages are built already, by its own npm ci. */
  linkedFolders: string[];
}

/** The port both start scripts listen on unless PORT says otherwise. */
export const DEFAULT_PROJECT_PORT = 8787;

/** wrangler and tsx as this repository pins them (STACK.md). */
const WRANGLER_VERSION = "4.116.0";
const TSX_VERSION = "4.23.15";

export function packageJson(s: ProjectSettings): string {
  const pkg = {
    name: s.name,
    version: "0.1.0",
    private: true,
    type: "module",
    scripts: {
      // motebit-edge's own `npm start` (wrangler dev --local, offline, on PORT or --port N, a taken port said in one
      // line, owner-only local state); .dev.vars holds the key, the identity and the auth token.
      start: "motebit-edge-dev",
      deploy: "wrangler deploy",
      test: "tsx --test test/*.test.ts",
      // Production on a machine of your own (not dev: a relay cannot reach localhost for --self-test). motebit.json
      // holds the same auth token as .dev.vars (motebit-local reads secrets from its config file or the environment, never a flag).
      "start:node": `motebit-local serve --serve-transport http --serve-port \${PORT:-${DEFAULT_PROJECT_PORT}} --identity motebit.md --config motebit.json --tools src/tools.ts --direct --self-test`,
    },
    dependencies: { "motebit-edge": s.edgeSpec, "motebit-local": s.localSpec },
    devDependencies: { tsx: TSX_VERSION, wrangler: WRANGLER_VERSION },
    // npm 11 asks which install scripts may run (as this repository's package.json answers): esbuild and workerd
    // check their binaries; sharp (pulled in by wrangler, unused here) needs none.
    allowScripts: { esbuild: true, workerd: true, sharp: false, ...Object.fromEntries(s.linkedFolders.map((k) => [k, false])) },
  };
  return JSON.stringify(pkg, null, 2) + "\n";
}

export function wranglerToml(s: ProjectSettings): string {
  return `# The Worker and its one Durable Object (the motebit: key, identity, memory, receipts in SQLite).
name = "${s.name}"
main = "src/index.ts"
compatibility_date = "2026-04-20"

[[durable_objects.bindings]]
name = "MOTEBIT"
class_name = "MotebitObject"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["MotebitObject"]

# Failed authentication at /mcp, per source: past 30 a minute a source is answered 429 + Retry-After.
# Optional (without it failures are not limited); namespace_id is any integer unique among your rate limiters.
[[ratelimits]]
name = "AUTH_FAILURES"
namespace_id = "1042"
simple = { limit = 30, period = 60 }

# Wakes the motebit every 5 minutes, so with MOTEBIT_SYNC_URL set a fresh deployment registers with its relay
# before any request; without it a wake only starts the object.
[triggers]
crons = ["*/5 * * * *"]
`;
}

export const WORKER_ENTRY = `// The Worker: motebit-edge serves the tools in ./tools.ts, signed and policy-gated; its Durable Object class
// (wrangler.toml's MotebitObject, which must be a named export here) is bound to the same tools.
import { createMotebitWorker } from "motebit-edge";
import tools from "./tools.js";
const worker = createMotebitWorker({ tools });
export default worker;
export const { MotebitObject } = worker;
`;

export const TOOLS_MODULE = `// The tools this motebit serves: the default export is an array of { definition, handler }.
import type { ServedTool } from "motebit-edge";

const greet: ServedTool = {
  definition: {
    name: "greet",
    description: "Greets someone by name.",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string", description: "Who to greet." } },
      required: ["name"],
      additionalProperties: false,
    },
    // R0_READ … R4_MONEY: the motebit's governance decides who may call a tool of this risk.
    risk: "R0_READ",
  },
  handler: (args) => ({ ok: true, data: \`Hello, \${String(args.name)}!\` }),
};

export default [greet];
`;

export const TOOLS_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import tools from "../src/tools.js";

test("greet greets by name", async () => {
  const greet = tools.find((t) => t.definition.name === "greet");
  assert.ok(greet, "the tools module exports greet");
  const result = await greet.handler({ name: "Ada" }, { signal: new AbortController().signal });
  assert.deepEqual(result, { ok: true, data: "Hello, Ada!" });
});
`;

export const GITIGNORE = `node_modules/
.wrangler/
# motebit-local's state (npm run start:node): memories, receipts, sessions.
.motebit/
# Secrets: the private key and the local settings that hold it (and the auth token).
motebit.key
.dev.vars
motebit.json
`;

export function readme(s: ProjectSettings, motebitId: string): string {
  const linked = s.localSpec.startsWith("file:")
    ? `\nmotebit-edge and motebit-local come from local packages (\`${s.edgeSpec}\`, \`${s.localSpec}\`), the ones the
\`motebit-local create\` that made this project ran from; once they are published, \`npm install motebit-edge motebit-local\`
switches to the registry's.\n`
    : "";
  return `# ${s.name}

A ${s.type} motebit (motebit_id \`${motebitId}\`): an MCP server with its own Ed25519 key that serves the
tools in \`src/tools.ts\`, tags every result with its identity and signs a receipt for every task.

\`\`\`sh
npm install
npm start           # the Worker on http://127.0.0.1:${DEFAULT_PROJECT_PORT} (wrangler dev --local, offline; reads .dev.vars)
npm test            # the tools' tests
npm run deploy      # to Cloudflare (set the secrets first, below)
npm run start:node  # or serve over HTTP from this machine (motebit-local, Node 22+; reads motebit.json)
\`\`\`

Both start scripts listen on 127.0.0.1, port \`PORT\` (default ${DEFAULT_PROJECT_PORT}): \`PORT=9000 npm start\`, or \`npm start -- --port 9000\`.
\`curl http://127.0.0.1:${DEFAULT_PROJECT_PORT}/health\` shows who it is. MCP clients connect to \`http://127.0.0.1:${DEFAULT_PROJECT_PORT}/mcp\` with
\`Authorization: Bearer <token>\` — the token is \`MOTEBIT_AUTH_TOKEN\` in \`.dev.vars\`, the same as \`authToken\` in
\`motebit.json\`, so it works with either start script — or with a signed token per request:
\`npx motebit-local token --key motebit.key --sub ${motebitId}\` (or \`signedFetch\` from \`motebit-edge/client\`).
A task's answer is a signed receipt: pipe the reply into \`npx motebit-local verify - --save receipt.json\` to check it
and keep it.
${linked}
Files: \`motebit.md\` is the signed identity (public). \`motebit.key\` is its private key; \`.dev.vars\` holds it too,
and \`motebit.json\` the auth token: all three stay out of git (\`.gitignore\`). Before the first deploy:

\`\`\`sh
npx wrangler secret put MOTEBIT_PRIVATE_KEY < motebit.key
npx wrangler secret put MOTEBIT_IDENTITY < motebit.md
npx wrangler secret put MOTEBIT_AUTH_TOKEN   # optional: a static token for callers without a motebit key
\`\`\`
`;
}

/** README of a fleet Worker (`create --fleet`): many motebits, one deployment, keys made inside their objects. */
export function fleetReadme(s: ProjectSettings): string {
  return `# ${s.name}

A fleet Worker: one deployment serving many motebits, each in its own Durable Object with its own key (made inside
the object, never shown), identity, memory, receipts and callers, at \`/m/<name>/mcp\`. All of them serve the
tools in \`src/tools.ts\` (each may be narrowed to some of them).

\`\`\`sh
npm install
npm start    # http://127.0.0.1:8787 (wrangler dev --local; .dev.vars holds MOTEBIT_FLEET_TOKEN)
npx motebit-local fleet create support --url http://127.0.0.1:8787 --token-file fleet.token
npx motebit-local fleet list --url http://127.0.0.1:8787 --token-file fleet.token
npx motebit-local fleet delete support --url http://127.0.0.1:8787 --token-file fleet.token
\`\`\`

\`fleet create\` prints the new motebit's \`motebit_id\`, \`public_key\`, signed \`identity\` and \`mcp_url\`. Give it callers
with \`--known-callers FILE\` (the MOTEBIT_KNOWN_CALLERS shape) or a static token with \`--auth-token-file FILE\`.
\`fleet.token\` and \`.dev.vars\` hold the operator token: both stay out of git. Before the first deploy:

\`\`\`sh
npx wrangler secret put MOTEBIT_FLEET_TOKEN < fleet.token
npx wrangler secret put MOTEBIT_PUBLIC_URL   # the Worker's URL: fleet motebits register <url>/m/<name> with a relay
\`\`\`
`;
}
