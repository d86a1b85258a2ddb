import { expect, it } from "vitest";
import { toUnitLength } from "../../../src/memory/unit-vector.js";

it("scales a vector to length 1 in place, keeps a zero vector, and refuses non-finite values", () => {
  const v = Float32Array.from([3, 4]);
  expect(toUnitLength(v)).toBe(true);
  expect([...v]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
  const zero = new Float32Array(3);
  expect(toUnitLength(zero)).toBe(true);
  expect([...zero]).toEqual([0, 0, 0]);
  expect(toUnitLength(Float32Array.from([1, Number.NaN]))).toBe(false);
  expect(toUnitLength(Float32Array.from([1, Number.POSITIVE_INFINITY]))).toBe(false);
});
