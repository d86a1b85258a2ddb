// One principal's view of the motebit for one message: the tools it sees, why each would be refused, its memory
// scope and its standing. Built once where the dispatcher takes the message and passed down, so tools/list,
// motebit_tools and tools/call read the same verdicts, and the host's settings are asked about the caller once.
import type { CallableTool } from "../agent/turn-context.js";
import type { MotebitContext } from "./motebit-context.js";
import type { CallerView } from "./call-context.js";
import type { SessionState } from "./session.js";
import type { CallState } from "./call-state.js";
import { admissionOf, callableRows, catalogFor, type Catalog, type CatalogEntry, type Refusal } from "./catalog.js";
import { clientSupports } from "./session.js";
import { MAX_TASK_ATTEMPTS } from "./engine/limits.js";
import { refusalOf, type Admission } from "../policy/admission/admit.js";
import { whyNotRunNow } from "../policy/admission/run-now.js";
import { memoryScopeOf } from "../memory/scope.js";
import type { Principal, Standing } from "../principal.js";
import type { Viewer } from "../policy/admission/audience.js";

/** The view the dispatcher builds; the catalog side (find, verdict, tools) is for the dispatcher and tools/call. */
export class CallerViewWithCatalog implements CallerView {
  readonly viewer: Viewer;
  private standingRead: Standing | undefined;
  private readonly admissions = new Map<CatalogEntry, Admission>();
  private catalog: Catalog | undefined;

  constructor(
    private readonly m: MotebitContext,
    /** The principal as the host delivered it (a stored call's: as it was when its work was accepted). */
    readonly asked: Principal,
    private readonly session: SessionState,
    private readonly call: CallState,
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
    return whyNotRunNow(this.standing, this.call.taskAttempt, MAX_TASK_ATTEMPTS);
  }

  /** A fresh read, for the tool steps of a long run after the call began: trust may change while it runs. */
  stopNow(): string | null {
    return whyNotRunNow(this.m.callerStanding(this.asked), this.call.taskAttempt, MAX_TASK_ATTEMPTS);
  }

  get memoryScope(): string {
    return memoryScopeOf(this.asked);
  }

  /** What this caller sees, in listing order; a tool it does not see does not exist for it. */
  get tools(): readonly CatalogEntry[] {
    return this.cat().entries;
  }

  /** What tools/list shows: what it sees, less what its OAuth grant does not reach (a call of one is a step-up). */
  listed(): CatalogEntry[] {
    return this.tools.filter((e) => this.admission(e).outcome !== "insufficient_scope");
  }

  find(name: string): CatalogEntry | undefined {
    return this.cat().byName.get(name);
  }

  /** What admission says of this tool for this caller in this request, whatever the arguments (asked once per tool). */
  admission(e: CatalogEntry): Admission {
    let v = this.admissions.get(e);
    if (v === undefined) {
      v = admissionOf(this.m, this.principal, e, {
        stop: this.stop,
        concluding: this.call.runRecord?.concludes !== undefined,
        ownerCanBeAsked: clientSupports(this.session, "elicitation"),
      });
      this.admissions.set(e, v);
    }
    return v;
  }

  /** Why tools/call would refuse this tool to this caller whatever the arguments, or null when it would run. */
  verdict(e: CatalogEntry): Refusal | null {
    return refusalOf(this.admission(e));
  }

  /** What this caller may call now: the answer of motebit_tools and the service listing. */
  callable(): CallableTool[] {
    return callableRows(this.tools, (e) => this.verdict(e));
  }

  private cat(): Catalog {
    return (this.catalog ??= catalogFor(this.m, this.viewer));
  }
}
