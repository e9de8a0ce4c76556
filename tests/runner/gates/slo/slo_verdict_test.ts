import assert from "node:assert/strict";
import { sampleRemedy } from "../../../../runner/gates/slo/slo_verdict.ts";

Deno.test("sampleRemedy() says how much longer to run in rounded words, never 1.843m", () => {
  // 2,000 requests with none beyond p99.9's bound: 3,688 decide it, 1,688 more at 200/s = 8.44 s.
  assert.match(
    sampleRemedy(2_000, 0, 0.001, 200, "requests", 0.05),
    /run about 9s longer at 200\/s$/,
  );
  // At 15.26/s the same 1,688 more requests take 110.6 s.
  assert.match(
    sampleRemedy(2_000, 0, 0.001, 15.26, "requests", 0.05),
    /run about 1m 51s longer at 15\.26\/s$/,
  );
});
