// The AI loop and the AI SDK load on the first AI-mode call, once: direct mode never loads them, and later calls
// do not pay the module loader again.
type AiModules = {
  runAiTask: typeof import("./ai-task.js").runAiTask;
  runQueryTurn: typeof import("./query-turn.js").runQueryTurn;
  newMeter: typeof import("./ai-loop.js").newMeter;
  startBudget: typeof import("./turn-budget.js").startBudget;
};

let loading: Promise<AiModules> | null = null;

export function aiModules(): Promise<AiModules> {
  loading ??= Promise.all([
    import("./ai-task.js"),
    import("./query-turn.js"),
    import("./ai-loop.js"),
    import("./turn-budget.js"),
  ]).then(([t, q, l, b]) => ({ runAiTask: t.runAiTask, runQueryTurn: q.runQueryTurn, newMeter: l.newMeter, startBudget: b.startBudget }));
  // A failed load (a broken install) is retried by the next call instead of being remembered.
  loading.catch(() => (loading = null));
  return loading;
}
