// What `serve` was asked for, parsed from its flags (commands/serve.ts) and run by serve/run-serve.ts.
export interface ServeOptions {
  transport: "stdio" | "http";
  port: number;
  host: string;
  identityPath: string | null;
  toolsPath: string | null;
  direct: boolean;
  selfTest: boolean;
  configPath: string | null;
  dataDirFlag: string | undefined;
  /** --embedder: MOTEBIT_EMBEDDER for this run (local or ollama); undefined: the setting's own value or default. */
  embedder: "local" | "ollama" | undefined;
  /** --metrics-port: the loopback Prometheus scrape port (wins over MOTEBIT_METRICS_PORT); null: not given. */
  metricsPort: number | null;
}
