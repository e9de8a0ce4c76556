import assert from "node:assert/strict";
import {
  formatChange,
  formatChangeRange,
} from "../../../../../runner/result/read/words/format_change.ts";

Deno.test("formatChange() writes the direction in words, never a negative worse", () => {
  assert.equal(formatChange(0.104), "10.4% worse");
  assert.equal(formatChange(-0.092), "9.2% better");
  assert.equal(formatChange(0.0012, true), "0.12 points worse");
  assert.equal(formatChange(-0.0012, true), "0.12 points better");
});

Deno.test("formatChange() calls a change that rounds to zero no change, whatever its sign", () => {
  assert.equal(formatChange(0), "no change");
  assert.equal(formatChange(-0.0004), "no change");
  assert.equal(formatChange(0.00004, true), "no change");
  assert.equal(formatChange(Infinity), "infinitely worse");
  assert.equal(formatChange(NaN), "-");
});

Deno.test("formatChangeRange() writes each end in words, and no range for an unbounded interval", () => {
  assert.equal(formatChangeRange(-0.031, 0.129), "3.1% better to 12.9% worse");
  assert.equal(formatChangeRange(-Infinity, Infinity), "-");
});
