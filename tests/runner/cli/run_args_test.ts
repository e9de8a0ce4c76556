import assert from "node:assert/strict";
import { parseRunArgs } from "../../../runner/cli/run_args.ts";

Deno.test("--trace turns trace context on for a plan file and for an ad-hoc URL", () => {
  const file = parseRunArgs(["plan.yaml", "--trace"]);
  assert.ok(file.ok);
  assert.equal(file.value.trace, true);
  const adHoc = parseRunArgs([
    "http://127.0.0.1:8080/",
    "--rate",
    "10/s",
    "--duration",
    "3s",
    "--trace",
  ]);
  assert.ok(adHoc.ok);
  assert.equal(adHoc.value.trace, true);
  const without = parseRunArgs(["plan.yaml"]);
  assert.ok(without.ok);
  assert.equal(without.value.trace, undefined);
});
