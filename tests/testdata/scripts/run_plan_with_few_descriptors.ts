/**
 * Run by out_of_descriptors_test.ts under `ulimit -n 80`: runs a 60-connection plan against the
 * URL in argv on the native I/O path and prints what the engine said, as one JSON line.
 */
import { runEngine } from "../../../runner/run/run_engine.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";

const { plan } = parseText(`name: fd
target: ${Deno.args[0]}
requests: [{ path: / }]
load:
  connections: 60
  stages: [{ rate: 200/s, duration: 300ms }]
`);
const notices: string[] = [];
const run = await runEngine({
  plan: plan!,
  io: "native",
  connectTimeoutMs: 1000,
  onNotice: (text) => notices.push(text),
});
const counts = run.recorded.stages[0].counts;
console.log(JSON.stringify({
  outOfDescriptors: run.outOfDescriptors ?? false,
  notices,
  completed: counts.completed,
  other: counts.errors.other ?? 0,
  ok: counts.ok,
}));
