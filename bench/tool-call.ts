// The tools/call the benches send a motebit: echo (the default), or with MOTEBIT_BENCH_TOOL=motebit_task a
// motebit_task over echo in direct mode (gate, run, signed receipt and its ledger row, and since issue 42 the row
// that keeps the call from its admission). The bare SDK baselines serve echo only and are always sent echo.
export const BENCH_TOOL = process.env.MOTEBIT_BENCH_TOOL === "motebit_task" ? "motebit_task" : "echo";

/** The params of call `i` to a motebit; its answer contains `hi ${i}` either way (the echo, or the receipt's result). */
export function motebitCall(i: number): { name: string; arguments: Record<string, unknown> } {
  return BENCH_TOOL === "echo"
    ? { name: "echo", arguments: { text: `hi ${i}` } }
    : { name: "motebit_task", arguments: { prompt: `hi ${i}`, required_capabilities: ["echo"] } };
}
