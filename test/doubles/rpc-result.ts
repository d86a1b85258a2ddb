// The doubles answer over RPC with a result instead of a throw: workerd logs every rejected entrypoint call as an
// "uncaught exception" with a stack trace, even when the caller catches it, so a test that expects a refusal
// printed alarming noise. The caller's side (throwingBinding) turns the result back into the throw the real
// binding gives, with the same message.

export type RpcResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Callee side: run `f`, answer its value or its error message. */
export async function settle<T>(f: () => T | Promise<T>): Promise<RpcResult<Awaited<T>>> {
  try {
    return { ok: true, value: await f() };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** Caller side: a binding whose every method resolves to the double's value or throws its error, like the real one. */
export function throwingBinding<T extends object>(stub: unknown): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (typeof prop !== "string" || prop === "then") return undefined; // not a thenable
      return async (...args: unknown[]) => {
        const r = (await (stub as Record<string, (...a: unknown[]) => Promise<RpcResult<unknown>>>)[prop](...args));
        if (!r.ok) throw new Error(r.message);
        return r.value;
      };
    },
  });
}
