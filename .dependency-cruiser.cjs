// The layering check (npm test runs it: test/node/layering/layering.test.ts). The core in src/ is layered, lowest
// first; a folder imports only from layers below it (and within itself). Hosts reach the core only through its
// entries. Type-only imports count: a type lives in the module that owns it, below everything that uses it.
const LAYERS = [
  ["bounded"], // what caller input may cost: the bounded echo in error messages, the bounded cache
  ["protocol", "ports.ts", "principal.ts"], // wire formats and crypto; what hosts plug in; who is asking
  ["telemetry"], // OpenTelemetry through @opentelemetry/api only: the port, spans, trace context, instruments
  ["settings"], // every setting once, and the rules for reading them
  ["storage"], // the migration runner every store's schema goes through
  ["callers"], // who is calling and what it may spend, on any transport: a signed token, the jti replay set, the rate buckets
  ["log"], // the receipt ledger and its transparency log: RFC 9162 hashing, proofs, its tables, the signed tree head
  ["policy"], // risk, governance, the gate, and the audit log of its decisions
  ["memory", "tools", "credentials"], // what the motebit remembers; the tools it serves; the credentials it holds
  ["agent"], // running a task: direct or AI, gate, receipt, ledger
  ["mcp"], // the MCP session engine and the motebit's synthetic tools
  ["motebit.ts"], // one motebit, composed
  ["oauth"], // a motebit as an OAuth authorization server and protected resource: grants, tokens, approvals (its http/ is in server's layer)
  ["discovery"], // what a motebit tells anyone: its public facts and signed discovery documents
  ["server", "relay", "client"], // the host-neutral HTTP app (and OAuth's endpoints); the relay loop; signed fetch for any runtime
  ["host"], // a host's start-up: its identity, its motebit with caller standing and the dispatch-token check
  ["fleet"], // many motebits behind one Worker
  ["index.ts", "ai.ts", "otel.ts"], // the entries
];

const plainPath = (name) => `^src/${name.replace(/\./g, "\\.")}${name.endsWith(".ts") ? "$" : "/"}`;
// OAuth lives in one folder, but its HTTP endpoints (src/oauth/http/) are mounted by the HTTP app and built on its
// pieces (body caps, rate buckets, replay set, responses): they belong to the server's layer, the rest of src/oauth/
// to its own, below it.
const OAUTH_HTTP = "^src/oauth/http/";
const path = (name) => (name === "server" ? `(^src/server/|${OAUTH_HTTP})` : plainPath(name));
const pathNot = (name) => (name === "oauth" ? OAUTH_HTTP : undefined);
const anyOf = (names) => `(${names.map(path).join("|")})`;

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return layer.map((name) => ({
    name: "no-back-edge",
    comment: `src/${name} is in layer ${i} and may import only from layers below it`,
    severity: "error",
    from: pathNot(name) === undefined ? { path: path(name) } : { path: path(name), pathNot: pathNot(name) },
    to: { path: anyOf([...above, ...layer.filter((other) => other !== name)]) },
  }));
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no import circles, type-only imports included",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-is-platform-neutral",
      comment: "src/ imports no node: or cloudflare: module; hosts adapt it through ports",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(node:|cloudflare:)" },
    },
    {
      name: "core-is-platform-neutral",
      comment: "src/ imports no Node built-in",
      severity: "error",
      from: { path: "^src/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "hosts-use-the-core-entry",
      comment: "worker/, durable-objects/ and motebit-local import the core only through src/index.ts (or src/ai.ts, src/otel.ts)",
      severity: "error",
      from: { path: "^(worker|durable-objects|local-stdio/src)/" },
      to: { path: "^src/", pathNot: "^src/(index|ai|otel)\\.ts$" },
    },
    {
      name: "http-app-is-host-neutral",
      comment: "src/server/ is the HTTP app only: a host's start-up (src/host/) builds on it, never the reverse",
      severity: "error",
      from: { path: "^src/server/" },
      to: { path: "^src/host/" },
    },
    {
      name: "object-never-imports-worker",
      comment: "the Worker reaches the Durable Object, never the reverse: the RPC contract lives in durable-objects/, and the served tools reach the object through its class (motebitObjectFor)",
      severity: "error",
      from: { path: "^durable-objects/" },
      to: { path: "^worker/" },
    },
    ...layerRules,
  ],
  options: {
    // TypeScript here is the native compiler (no JS API), so swc parses.
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist|local-stdio/dist)/" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs", ".json"] },
  },
};
