import assert from "node:assert/strict";
import { parseRunArgs } from "../../../runner/cli/run_args.ts";
import { problemText } from "../../../runner/model/mod.ts";

Deno.test("--export is read once per receiver, in order, beside the plan's own", () => {
  const read = parseRunArgs([
    "plans/demo.yaml",
    "--export",
    "prometheus=http://127.0.0.1:9090/api/v1/write",
    "--export",
    "otlp=http://127.0.0.1:4318",
  ]);
  assert.ok(read.ok);
  assert.deepEqual(read.value.exporters?.map((e) => [e.kind, e.url]), [
    ["prometheus", "http://127.0.0.1:9090/api/v1/write"],
    ["otlp", "http://127.0.0.1:4318"],
  ]);
  const none = parseRunArgs(["plans/demo.yaml"]);
  assert.ok(none.ok && none.value.exporters === undefined);
});

Deno.test("--export names an unknown kind, a missing URL and a bad one, each with its fix", () => {
  const read = parseRunArgs([
    "plans/demo.yaml",
    "--export",
    "statsd=udp://127.0.0.1:8125",
    "--export",
    "otlp",
    "--export",
    "prometheus=https://u:pw@127.0.0.1",
    "--export",
    "prometheus=127.0.0.1:9090",
  ]);
  assert.ok(!read.ok);
  assert.deepEqual(read.problems.map(problemText), [
    "--export statsd=udp://127.0.0.1:8125: `statsd` is not an exporter; write `--export prometheus=URL` (remote write) or `--export otlp=URL` (OTLP/HTTP)",
    "--export otlp needs its URL; write `--export otlp=URL`",
    "--export: `127.0.0.1:9090` is not an http(s) URL for prometheus; write e.g. `http://127.0.0.1:9090/api/v1/write`",
  ]);
});

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
