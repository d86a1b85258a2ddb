// The AI loop and the AI SDK load on the first AI-mode call, once: direct mode never loads them, and later calls
// do not pay the module loader again.
type AiModules = {
  runAiTask: typeof import("../../agent/ai-task.js").runAiTask;
  runQueryTurn: typeof import("../../agent/query-turn.js").runQueryTurn;
  newMeter: typeof import("../../agent/ai-loop.js").newMeter;
  startBudget: typeof import("../../agent/turn-budget.js").startBudget;
};

let loading: Promise<AiModules> | null = null;

export function aiModules(): Promise<AiModules> {
  loading ??= Promise.all([
    import("../../agent/ai-task.js"),
    import("../../agent/query-turn.js"),
    import("../../agent/ai-loop.js"),
    import("../../agent/turn-budget.js"),
  ]).then(([t, q, l, b]) => ({ runAiTask: t.runAiTask, runQueryTurn: q.runQueryTurn, newMeter: l.newMeter, startBudget: b.startBudget }));
  // A failed load (a broken install) is retried by the next call instead of being remembered.
  loading.catch(() => (loading = null));
  return loading;
}
