// One process warning left out of stderr while something loads: in stdio mode an MCP host shows stderr to the owner
// as if something were wrong. Only the warning `drop` recognises is dropped; every other one still goes out.

/** A warning as process.emitWarning receives it: its text, and its type or code (the second argument, or its fields). */
export type WarningMatch = (text: string, kind: { type?: string; code?: string }) => boolean;

/** Runs `load` (sync, or until its promise settles) with the warnings `drop` matches left out. */
export function withoutWarning<T>(drop: WarningMatch, load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const kind = typeof rest[0] === "string" ? { type: rest[0], code: typeof rest[1] === "string" ? rest[1] : undefined } : ((rest[0] ?? {}) as { type?: string; code?: string });
    if (drop(String(warning), kind)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  const restore = () => void (process.emitWarning = emit);
  try {
    const result = load();
    if (result instanceof Promise) return result.finally(restore) as T;
    restore();
    return result;
  } catch (e) {
    restore();
    throw e;
  }
}
