// One principal's view of the motebit for one message: the tools it sees, why each would be refused, its memory
// scope and its standing. Built once where the dispatcher takes the message and passed down, so tools/list,
// motebit_tools and tools/call read the same verdicts, and the host's settings are asked about the caller once.
import type { CallableTool } from "../agent/turn-context.js";
import type { CallView, MotebitContext } from "./context.js";
import type { SessionState } from "./session.js";
import { callableRows, catalogFor, toolRefusal, type Catalog, type CatalogEntry, type Refusal } from "./catalog.js";
import { whyNotRunNow } from "./run-check.js";
import { memoryScopeOf } from "../memory/scope.js";
import type { Principal, Standing } from "../principal.js";
import type { Viewer } from "../tools/audience.js";

/** The view the dispatcher builds; the catalog side (find, verdict, tools) is for the dispatcher and tools/call. */
export class ToolView implements CallView {
  readonly viewer: Viewer;
  private standingRead: Standing | undefined;
  private readonly verdicts = new Map<CatalogEntry, Refusal | null>();
  private catalog: Catalog | undefined;

  constructor(
    private readonly m: MotebitContext,
    /** The principal as the host delivered it (a stored call's: as it was when its work was accepted). */
    readonly asked: Principal,
    private readonly session: SessionState,
  ) {
    this.viewer = asked.kind;
  }

  /** The caller's standing under the host's settings, read at most once per call (on first use). */
  get standing(): Standing {
    return (this.standingRead ??= this.m.callerStanding(this.asked));
  }

  /** The principal as it stands now: its trust as the host's settings say today, when it still stands. */
  get principal(): Principal {
    const s = this.standing;
    return s.ok ? s.principal : this.asked;
  }

  /** Why nothing may run in this call (standing lost, the task's attempt cap), or null. */
  get stop(): string | null {
    return whyNotRunNow(this.standing, this.session);
  }

  /** A fresh read, for the tool steps of a long run after the call began: trust may change while it runs. */
  stopNow(): string | null {
    return whyNotRunNow(this.m.callerStanding(this.asked), this.session);
  }

  get memoryScope(): string {
    return memoryScopeOf(this.asked);
  }

  /** What this caller sees, in listing order; a tool it does not see does not exist for it. */
  get tools(): readonly CatalogEntry[] {
    return this.cat().entries;
  }

  find(name: string): CatalogEntry | undefined {
    return this.cat().byName.get(name);
  }

  /**
   * Why tools/call would refuse this tool to this caller whatever the arguments, or null when it would run: the
   * call's stop first (a tool that signs every outcome runs and signs it), then the gate, then what the tool declares.
   */
  verdict(e: CatalogEntry): Refusal | null {
    let v = this.verdicts.get(e);
    if (v === undefined) {
      const stop = this.stop;
      const signs = e.tool.kind === "synthetic" && e.tool.impl.signsEveryOutcome;
      // A call admitted before its host stopped is concluded with its receipt whatever is refused now: nothing runs.
      if (signs && this.session.taskRun?.concludes !== undefined) v = null;
      else if (stop === null) v = toolRefusal(this.m, this.principal, e);
      else v = signs ? null : { outcome: "deny", message: `Denied: ${stop}` };
      this.verdicts.set(e, v);
    }
    return v;
  }

  /** What this caller may call now: the answer of motebit_tools and the service listing. */
  callable(): CallableTool[] {
    return callableRows(this.tools, (e) => this.verdict(e));
  }

  private cat(): Catalog {
    return (this.catalog ??= catalogFor(this.m, this.viewer));
  }
}
