// The workerd-otel test project: the real Worker and Durable Object with OTEL_* vars naming an OTLP endpoint at
// http://otlp.test. Outbound fetches of this worker (the Worker's and the object's exports, and the tests' reads)
// leave workerd through the function below, in Node: /v1/* goes to a real OTLP receiver (test/node/helpers/
// otlp-receiver.ts: a plain HTTP server on port 0, decoding with the official opentelemetry-proto definitions), and
// GET /received answers what it decoded, so the tests inside workerd can check it.
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineProject } from "vitest/config";
import type { OtlpReceiver } from "../../node/helpers/otlp-receiver.js";

export const OTLP_HOST = "otlp.test";
let receiver: Promise<OtlpReceiver> | undefined;

async function outbound(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.hostname !== OTLP_HOST) return new Response("no network in this test project", { status: 502 });
  receiver ??= import("../../node/helpers/otlp-receiver.js").then((m) => m.startOtlpReceiver());
  const r = await receiver;
  if (url.pathname === "/received") {
    const json = JSON.stringify({ spans: r.spans(), metrics: r.metrics(), exports: r.exports.map((e) => ({ path: e.path, contentType: e.contentType, headers: e.headers, bytes: e.body.toString("base64") })) }, (_k, v) =>
      typeof v === "bigint" ? v.toString() : v,
    );
    return new Response(json, { headers: { "content-type": "application/json" } });
  }
  return fetch(`${r.url}${url.pathname}`, { method: request.method, headers: request.headers, body: await request.arrayBuffer() });
}

// Paths are relative to this directory: the root config lists this file as a project, whose root is its folder.
export default defineProject({
  plugins: [
    cloudflareTest({
      main: "../../../worker/index.ts",
      wrangler: { configPath: "../wrangler.test.toml" },
      miniflare: {
        bindings: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://${OTLP_HOST}`,
          // Traces as protobuf, metrics as JSON: both serializers on the edge.
          OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
          OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/json",
          OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=edge-test",
          OTEL_SERVICE_NAME: "motebit-edge-test",
          OTEL_METRIC_EXPORT_INTERVAL: "100",
        },
        outboundService: outbound,
      },
    }),
  ],
  test: {
    name: "workerd-otel",
    include: ["**/*.test.ts"],
    setupFiles: ["../word-table.setup.ts"],
    testTimeout: 30_000,
  },
});
