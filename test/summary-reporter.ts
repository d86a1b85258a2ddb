// Ends every run with one plain line, "N passed, N failed, N skipped", that CI and humans can read alike.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
      // A file that failed to load has no tests to count; it still failed.
      if (m.state() === "failed" && m.children.size === 0) counts.failed++;
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
