import assert from "node:assert/strict";
import { soundnessVerdicts } from "../../../../runner/result/read/run_soundness.ts";
import { computeRunVerdict } from "../../../../runner/gates/run_verdict.ts";

const counts = (ok: number, refused: number) => ({
  completed: ok + refused,
  ok,
  errors: refused ? { refused } : {},
});
const answering = [{ startMs: 0, durationMs: 1000, counts: counts(1000, 0) }];
const lost = [
  ...answering,
  { startMs: 1000, durationMs: 1000, counts: counts(0, 1000) },
  { startMs: 2000, durationMs: 1000, counts: counts(0, 1000) },
];

Deno.test("a complete run whose target answered has no soundness gate", () => {
  const run = { complete: true, stopReason: "completed", durationMs: 1000 };
  assert.deepEqual(soundnessVerdicts({ run, intervals: answering } as never), []);
});

Deno.test("a stopped run gets an invalid 'run complete' gate, counted with the others", () => {
  const run = { complete: false, stopReason: "interrupted", durationMs: 4200 };
  const verdicts = soundnessVerdicts({ run, intervals: answering } as never);
  assert.deepEqual(verdicts.map((v) => [v.kind, v.name, v.status]), [
    ["validity", "run complete", "invalid"],
  ]);
  assert.match(verdicts[0].message, /stopped early \(interrupted\) after 4\.2 s/);
  const all = [...verdicts, { status: "pass" as const }];
  const verdict = computeRunVerdict({ verdicts: all, run, intervals: answering } as never);
  assert.equal(verdict.summary, "2 gates: 1 invalid, 1 pass");
  assert.equal(verdict.status, "invalid");
});

Deno.test("a target that stopped answering gets a failed gate, and the run fails", () => {
  const run = { complete: true, stopReason: "completed", durationMs: 3000 };
  const verdicts = soundnessVerdicts({ run, intervals: lost } as never);
  assert.deepEqual(verdicts.map((v) => [v.name, v.status]), [
    ["target answered to the end", "fail"],
  ]);
  assert.match(verdicts[0].message, /stopped answering 1\.0 s into the run: 2000 requests/);
});
