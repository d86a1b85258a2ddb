// A clock the test moves by hand.
import type { Clock } from "../../../src/ports.js";

export function fakeClock(start = 1_767_225_600_000): Clock & { advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}
