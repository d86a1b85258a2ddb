// The Prometheus scrape endpoint: its own HTTP server on 127.0.0.1, never the MCP listener, so an MCP caller (who
// reaches only --serve-host:--serve-port) cannot read it; only processes on this machine can, the operator's scraper.
import { createServer } from "node:http";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { CliError } from "../cli-error.js";

export const METRICS_HOST = "127.0.0.1";
export const METRICS_PATH = "/metrics";

export interface MetricsListener {
  reader: PrometheusExporter;
  url: string;
  close(): Promise<void>;
}

export async function openMetricsListener(port: number): Promise<MetricsListener> {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const server = createServer((req, res) => {
    if (req.method === "GET" && new URL(req.url ?? "/", "http://x").pathname === METRICS_PATH) return reader.getMetricsRequestHandler(req, res);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(new CliError(`cannot open the metrics port ${METRICS_HOST}:${port}: ${e.code ?? e.message}`)));
    server.listen(port, METRICS_HOST, () => resolve());
  });
  const bound = server.address();
  const url = `http://${METRICS_HOST}:${typeof bound === "object" && bound !== null ? bound.port : port}${METRICS_PATH}`;
  return {
    reader,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
