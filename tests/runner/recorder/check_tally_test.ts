import assert from "node:assert/strict";
import { CheckTally, mergeChecks } from "../../../runner/recorder/check_tally.ts";

Deno.test("a tally keeps stages apart and ignores a label without checks", () => {
  const tally = new CheckTally(2, [undefined, [{ text: "max_bytes 10", line: 2 }]]);
  tally.add(0, 0, Uint8Array.of(1));
  tally.add(1, 1, Uint8Array.of(1));
  tally.add(1, 1, Uint8Array.of(1));
  assert.equal(tally.of(0, 0), undefined);
  assert.deepEqual(tally.of(0, 1), [{ text: "max_bytes 10", line: 2, evaluated: 0, failed: 0 }]);
  assert.deepEqual(tally.of(1, 1)?.[0].failed, 2);
});

Deno.test("merging checks of no part gives none", () => {
  assert.equal(mergeChecks([undefined, undefined]), undefined);
});
