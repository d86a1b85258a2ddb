// `npm run docs:trace`: the picture of a real trace in docs/observability.md. The real motebit-local CLI (its bundle)
// serves over stdio with OTEL_EXPORTER_OTLP_ENDPOINT at a real OTLP receiver (test/node/helpers/otlp-receiver.ts,
// decoding with the official opentelemetry-proto definitions); an MCP client calls motebit_task with a traceparent in
// _meta; the spans received in that trace are drawn as a waterfall to docs/images/trace-waterfall.svg, and listed
// with their attributes on stdout.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, connectStdio, initMotebit, REPO, tempDir, writeToolsModule } from "../test/node/local/helpers/local-cli.js";
import { startOtlpReceiver, type ReceivedSpan } from "../test/node/helpers/otlp-receiver.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const OUT = join(REPO, "docs/images/trace-waterfall.svg");

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Depth-first from the spans whose parent is not in the trace (the caller's span is outside it). */
function ordered(spans: ReceivedSpan[]): { span: ReceivedSpan; depth: number }[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = (id: string | null) => spans.filter((s) => (id === null ? !ids.has(s.parentSpanId) : s.parentSpanId === id)).sort((a, b) => (a.startNs < b.startNs ? -1 : 1));
  const out: { span: ReceivedSpan; depth: number }[] = [];
  const walk = (s: ReceivedSpan, depth: number) => {
    out.push({ span: s, depth });
    for (const c of children(s.spanId)) walk(c, depth + 1);
  };
  for (const root of children(null)) walk(root, 0);
  return out;
}

function svg(rows: { span: ReceivedSpan; depth: number }[], service: string): string {
  const t0 = rows.reduce((m, r) => (r.span.startNs < m ? r.span.startNs : m), rows[0].span.startNs);
  const t1 = rows.reduce((m, r) => (r.span.endNs > m ? r.span.endNs : m), rows[0].span.endNs);
  const total = Number(t1 - t0) || 1;
  const [labelW, barW, rowH, top] = [300, 560, 24, 48];
  const width = labelW + barW + 90;
  const height = top + rows.length * rowH + 30;
  const colours = ["#2b6cb0", "#2f855a", "#b7791f", "#9b2c2c", "#6b46c1"];
  const bars = rows.map(({ span, depth }, i) => {
    const y = top + i * rowH;
    const x = labelW + (Number(span.startNs - t0) / total) * barW;
    const w = Math.max(2, (Number(span.endNs - span.startNs) / total) * barW);
    const ms = (Number(span.endNs - span.startNs) / 1e6).toFixed(2);
    const kind = span.kind === 2 ? " (server)" : span.kind === 3 ? " (client)" : "";
    return [
      `<text x="${8 + depth * 14}" y="${y + 16}" font-size="12">${escape(span.name)}${kind}</text>`,
      `<rect x="${x.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" rx="2" fill="${colours[depth % colours.length]}"${span.statusCode === 2 ? ' stroke="#c53030" stroke-width="2"' : ""}/>`,
      `<text x="${(x + w + 4).toFixed(1)}" y="${y + 16}" font-size="11" fill="#4a5568">${ms} ms</text>`,
    ].join("");
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="20" font-size="14" font-weight="bold">${escape(`tools/call motebit_task, as an OTLP receiver got it from ${service}`)}</text>`,
    `<text x="8" y="38" font-size="11" fill="#4a5568">${escape(`trace ${TRACE_ID} (from the caller's _meta.traceparent, parent span ${CALLER_SPAN}); ${(total / 1e6).toFixed(2)} ms in all`)}</text>`,
    ...bars,
    `</svg>`,
    "",
  ].join("\n");
}

const receiver = await startOtlpReceiver();
const tmp = tempDir();
try {
  const identity = await initMotebit(tmp.dir, ["--name", "waterfall"]);
  const service = "motebit-local";
  const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: service });
  const session = await connectStdio(["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--direct", "--embedder", "local"], env);
  await session.client.callTool({ name: "motebit_task", arguments: { prompt: "hello waterfall", required_capabilities: ["shout"] }, _meta: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } });
  await session.close();
  const spans = await receiver.waitFor(() => {
    const mine = receiver.spans().filter((s) => s.traceId === TRACE_ID);
    return mine.some((s) => s.name === "sign_receipt") && mine.some((s) => s.parentSpanId === CALLER_SPAN) ? mine : undefined;
  });
  const rows = ordered(spans);
  writeFileSync(OUT, svg(rows, service));
  for (const { span, depth } of rows) console.log(`${"  ".repeat(depth)}${span.name}  ${JSON.stringify(span.attributes)}`);
  console.log(`wrote ${OUT}`);
} finally {
  tmp.cleanup();
  await receiver.close();
}
