// `--serve-transport http`: the edge's own Hono app (src/server/app.ts) under Node, over an in-process backend
// built from the same src/server pieces and the local SQLite file. Same auth, sessions, limits and peer
// rules as the edge: every HTTP caller is a peer, and without authToken or a signed token it gets 401.
import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { AUTH_FAILURES_PER_SOURCE_PER_MINUTE, type Clock, createApp, failedAuthBuckets, RateLimiter, InProcessBackend, listeningPublicBase, metadataDocumentFetcher, type Motebit, type ServerConfig, type SqlPort } from "motebit-edge/core";
import { listeningHosts } from "./listening-hosts.js";
import { nodeVerifySignature } from "./node-verify.js";
import { publicOnlyFetch } from "./public-fetch.js";

/** How long a graceful stop waits for running tasks to let go of their leases (the next start resumes them at once). */
const HAND_OVER_MS = 1_500;

/**
 * How long a request may take to arrive whole (headers and body, a chunked body's last chunk included). 10 s is
 * far more than a capped (1 MiB) body needs on any link a peer agent uses, and short enough that a client which
 * declared more than it sent hears 408 before it gives up itself.
 */
export const REQUEST_RECEIVE_MS = 10_000;

export interface HttpHost {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(o: {
  motebit: Motebit;
  sql: SqlPort;
  clock: Clock;
  config: ServerConfig;
  host: string;
  port: number;
  /** The motebit's public base URL (publicUrl): its OAuth issuer and resource. Null: the address it listens on. */
  publicUrl?: string | null;
  /** Default REQUEST_RECEIVE_MS. */
  requestReceiveMs?: number;
}): Promise<HttpHost> {
  // Requests whose handler has not answered yet, this one included: with others among them, a token's signature
  // check goes to the thread pool so the event loop can get on with them (node-verify.ts).
  let inFlight = 0;
  const verify = nodeVerifySignature(() => inFlight > 1);
  const backend = new InProcessBackend({ config: o.config, sql: o.sql, clock: o.clock, motebit: o.motebit, verify, fetchClientMetadata: metadataDocumentFetcher(publicOnlyFetch) });
  const authFailures = new RateLimiter(o.sql, o.clock, AUTH_FAILURES_PER_SOURCE_PER_MINUTE);
  authFailures.migrate();
  // Filled in once the port is known; until then no Host is vouched for.
  let listening: string[] = [];
  const app = createApp({
    backend,
    tools: o.motebit.registry,
    publicBase: () => listeningPublicBase(o.publicUrl ?? null, listening),
    // The socket's peer address: what the OAuth endpoints' per-source limits key on (no header can change it).
    sourceOf: (_request, env) => (env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress,
    // Failed authentication at /mcp, per socket address: 30 a minute, then 429 + Retry-After (src/server/failed-auth.ts).
    failedAuthLimiter: failedAuthBuckets(authFailures),
  });
  const fetch = async (request: Request, env?: object): Promise<Response> => {
    inFlight++;
    try {
      return await app.fetch(request, env);
    } finally {
      inFlight--;
    }
  };
  const server = await new Promise<ServerType>((resolveListening, reject) => {
    const s = serve(
      // A request still arriving after REQUEST_RECEIVE_MS (a body that declared more than it sent, a trickle) gets 408
      // from Node and its connection closed; the answer's own time (a task may run 60 s) is not limited by this.
      { fetch, port: o.port, hostname: o.host, serverOptions: { requestTimeout: o.requestReceiveMs ?? REQUEST_RECEIVE_MS, connectionsCheckingInterval: 1_000 } },
      () => resolveListening(s),
    );
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  listening = listeningHosts(o.host, port);
  const hostInUrl = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    url: `http://${hostInUrl}:${port}`,
    close: () =>
      new Promise<void>((done) => {
        // Open keep-alive connections would hold close() forever.
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => void backend.handOver(HAND_OVER_MS).then(done));
      }),
  };
}
