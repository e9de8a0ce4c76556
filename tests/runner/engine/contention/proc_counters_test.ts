import assert from "node:assert/strict";
import {
  pressureTotalUs,
  schedstatWaitNs,
  stealTicksPerCpu,
} from "../../../../runner/engine/contention/mod.ts";

Deno.test("pressureTotalUs() reads the some line's total, not the full line's", () => {
  const text = "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n" +
    "some avg10=1.50 avg60=0.20 avg300=0.05 total=1234567\n";
  assert.equal(pressureTotalUs(text), 1234567);
  assert.equal(pressureTotalUs("full avg10=0.00 total=7\n"), undefined);
  assert.equal(pressureTotalUs("some avg10=1.50\n"), undefined);
});

Deno.test("stealTicksPerCpu() reads the 8th value of each cpuN line, in CPU order", () => {
  const text = "cpu  10 0 10 100 0 0 0 30 0 0\n" +
    "cpu0 5 0 5 50 0 0 0 10 0 0\n" +
    "cpu1 5 0 5 50 0 0 0 20 0 0\n" +
    "intr 1 2 3\nctxt 99\n";
  assert.deepEqual(stealTicksPerCpu(text), [10, 20]);
});

Deno.test("stealTicksPerCpu() has nothing for a kernel without steal, or no cpu lines", () => {
  assert.equal(stealTicksPerCpu("cpu0 5 0 5 50\n"), undefined);
  assert.equal(stealTicksPerCpu("intr 1 2 3\n"), undefined);
  assert.equal(stealTicksPerCpu(""), undefined);
});

Deno.test("schedstatWaitNs() reads the second field, the wait in the run queue", () => {
  assert.equal(schedstatWaitNs("100 250 3\n"), 250);
  assert.equal(schedstatWaitNs("0 0 1"), 0);
  assert.equal(schedstatWaitNs("100 x 3\n"), undefined);
  assert.equal(schedstatWaitNs(""), undefined);
});
