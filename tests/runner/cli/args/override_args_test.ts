import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { readOverrideArgs } from "../../../../runner/cli/args/override_args.ts";

Deno.test("readOverrideArgs() reads factors, percentages, stages and connections", () => {
  assert.deepEqual(readOverrideArgs({}), { ok: true, value: undefined });
  const read = readOverrideArgs({
    "rate-scale": "25%",
    "duration-scale": "0.1",
    stage: ["steady:duration=30s"],
    connections: "100",
  });
  assert.ok(read.ok);
  assert.equal(read.value?.rateScale, 0.25);
  assert.equal(read.value?.durationScale, 0.1);
  assert.equal(read.value?.stages?.[0].values.duration, "30s");
  assert.equal(read.value?.connections, "100");
});

Deno.test("readOverrideArgs() names every bad value with the fix", () => {
  const read = readOverrideArgs({
    "rate-scale": "0",
    "duration-scale": "half",
    stage: ["steady"],
    connections: "-3",
  });
  assert.equal(read.ok, false);
  const errors = read.ok ? [] : read.problems.map(problemText);
  assert.equal(errors.length, 4);
  assert.match(errors[0], /--rate-scale `0`: give a factor above 0, e.g. 0.25 or 25%/);
  assert.match(errors[1], /--duration-scale `half`/);
  assert.match(errors[2], /--stage `steady`: name the stage first/);
  assert.match(errors[3], /--connections `-3`: give a whole number/);
});
