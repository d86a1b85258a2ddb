// What a running tool may do towards the client of the call that runs it: progress, logs, and asking the
// client (elicitation, sampling). Progress needs the request's progressToken; logs honour the session's level;
// asking needs the client to have declared the capability at initialize.
import type { ToolContext } from "../tools/types.js";
import type { CallContext } from "./call-context.js";
import type { InputMethod, InputRound } from "./stateless/input-required.js";
import type { LogLevel } from "../tools/log-level.js";
import { clientSupports, logLevelAtLeast } from "./session.js";
import { headersOf } from "../telemetry/trace-scope.js";

export function toolContextFor(c: CallContext, logger: string, round?: InputRound): Omit<ToolContext, "signal"> {
  // 2026-07-28 asks through the call's input-required result; a session asks over its channel.
  const ask = (capability: "elicitation" | "sampling" | "roots", method: InputMethod) => async (params: Record<string, unknown>, key?: string) => {
    if (round !== undefined) return round.ask(method, params, key);
    if (!clientSupports(c.session, capability)) throw new Error(`the client did not declare the ${capability} capability`);
    return c.channel.request(method, params, c.signal);
  };
  const askRoots = ask("roots", "roots/list");
  let last = -Infinity;
  return {
    progress(done, total, message) {
      // MCP asks progress to increase with each notification: a repeat or a step back is not sent.
      if (c.progressToken === undefined || !Number.isFinite(done) || done <= last) return;
      last = done;
      c.channel.notify("notifications/progress", {
        progressToken: c.progressToken,
        progress: done,
        ...(total !== undefined && Number.isFinite(total) && { total }),
        ...(message !== undefined && { message: String(message) }),
      });
    },
    log(level: LogLevel, data: unknown) {
      if (!logLevelAtLeast(level, c.session.logLevel)) return;
      c.channel.notify("notifications/message", { level, logger, data });
    },
    elicit: ask("elicitation", "elicitation/create"),
    sample: ask("sampling", "sampling/createMessage"),
    roots: (key) => askRoots({}, key),
    ...(c.trace !== undefined && { trace: headersOf(c.trace) }),
  };
}
