/**
 * A gRPC plan through the whole lifecycle (`runPlan`): its `.proto` read, each message rendered
 * from its template and encoded, sent over h2c to the in-test gRPC server, every status counted
 * by name, the replies decoded for the plan's checks, and the reports written.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runPlan } from "../../../runner/api/run_plan.ts";
import { loadPlan } from "../../../runner/plan/mod.ts";
import { grpcServer } from "../../_helpers/grpc_server.ts";
import { H2_CERT } from "../../_helpers/http2_servers.ts";

const PROTO = new URL("../../../plans/examples/grpc/protos/helloworld.proto", import.meta.url);

/** The `name` of a framed HelloRequest (field 1, a short string). */
function nameOf(framed: Uint8Array): string {
  assert.equal(framed[5], 0x0a, "field 1, length-delimited");
  return new TextDecoder().decode(framed.subarray(7, 7 + framed[6]));
}

Deno.test("a gRPC plan runs end to end: rendered messages, statuses by name, checks on replies", async () => {
  const names: string[] = [];
  await using server = await grpcServer({
    answer: (call) => {
      if (call.path !== "/helloworld.Greeter/SayHello") return {};
      names.push(nameOf(call.body));
      return names.length % 10 === 0 ? { status: 14, message: "draining" } : {};
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "protos"));
    await Deno.copyFile(PROTO, join(dir, "protos", "helloworld.proto"));
    const file = join(dir, "greeter.yaml");
    await Deno.writeTextFile(
      file,
      `name: greeter
target: ${server.origin.replace("http://", "grpc://")}
grpc: { proto: [protos/helloworld.proto], deadline: 2s }
vars: { n: counter }
requests:
  - name: SayHello
    call: helloworld.Greeter/SayHello
    message: { name: "user-{{n}}" }
    check: { json: { /message: Hello } }
load: { connections: 4, stages: [{ rate: 200/s, duration: 1s }] }
slo: [error_rate < 20%]
`,
    );
    const { plan, issues } = await loadPlan(file, { requireEnv: true });
    assert.ok(plan, JSON.stringify(issues));
    const outDir = join(dir, "out");
    const outcome = await runPlan(plan, { outDir, reports: ["md"], confirmTimes: 0 });
    const result = outcome.result!;
    const counts = result.stages[0].counts;
    assert.equal(counts.scheduled, 200);
    // Every call reached the server once, each with its own rendered name.
    assert.equal(names.length, 200);
    assert.equal(new Set(names).size, 200);
    assert.deepEqual(names.slice(0, 3).sort(), ["user-0", "user-1", "user-2"]);
    // Statuses by name; the UNAVAILABLE calls fail as unexpected statuses, the rest pass the check.
    assert.deepEqual(counts.statusCodes, { OK: 180, UNAVAILABLE: 20 });
    assert.equal(counts.ok, 180);
    assert.equal(counts.errors.unexpected_status, 20);
    assert.equal(counts.errors.check_failed ?? 0, 0);
    // The check read each reply's JSON form (protobuf decoded: raw, none would pass it).
    const [check] = result.stages[0].labels[0].checks!;
    assert.deepEqual([check.evaluated, check.failed], [200, 0]);
    assert.equal(result.run.grpc, true);
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    const summary = await Deno.readTextFile(join(outDir, "summary.md"));
    assert.match(summary, /UNAVAILABLE/);
    assert.match(summary, /gRPC over h2c/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a grpcs:// plan runs over TLS, its server's certificate trusted by --ca-cert", async () => {
  await using server = await grpcServer({ tls: true });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "protos"));
    await Deno.copyFile(PROTO, join(dir, "protos", "helloworld.proto"));
    const ca = join(dir, "ca.pem");
    await Deno.writeTextFile(ca, H2_CERT);
    const file = join(dir, "greeter.yaml");
    const port = new URL(server.origin).port;
    await Deno.writeTextFile(
      file,
      `name: greeter-tls
target: grpcs://localhost:${port}
grpc: { proto: [protos/helloworld.proto] }
requests: [{ call: helloworld.Greeter/SayHello, message: { name: tls } }]
load: { connections: 2, stages: [{ rate: 50/s, duration: 1s }] }
`,
    );
    const { plan, issues } = await loadPlan(file, { requireEnv: true });
    assert.ok(plan, JSON.stringify(issues));
    const untrusted = await runPlan(plan, { outDir: join(dir, "out0") });
    assert.equal(untrusted.exitCode, 4, "an untrusted certificate stops the run before a call");
    const outcome = await runPlan(plan, { outDir: join(dir, "out"), caCertFiles: [ca] });
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    assert.deepEqual(outcome.result!.stages[0].counts.statusCodes, { OK: 50 });
    assert.equal(outcome.result!.run.protocol, "h2");
    assert.match(outcome.output!, /gRPC over TLS/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a journey of gRPC calls: a reply's field captured from its JSON form feeds the next call", async () => {
  const seen: string[] = [];
  await using server = await grpcServer({
    answer: (call) => {
      if (call.path === "/helloworld.Greeter/SayHello") seen.push(nameOf(call.body));
      return {};
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "protos"));
    await Deno.copyFile(PROTO, join(dir, "protos", "helloworld.proto"));
    const file = join(dir, "journey.yaml");
    await Deno.writeTextFile(
      file,
      `name: greeter-journey
target: ${server.origin.replace("http://", "grpc://")}
grpc: { proto: [protos/helloworld.proto] }
requests:
  - journey: greet
    steps:
      - { name: hello, call: helloworld.Greeter/SayHello, message: { name: first }, capture: { said: { json: /message } } }
      - { name: again, call: helloworld.Greeter/SayHello, message: { name: "{{said}}-again" } }
load: { connections: 2, stages: [{ rate: 20/s, duration: 500ms }] }
`,
    );
    const { plan, issues } = await loadPlan(file, { requireEnv: true });
    assert.ok(plan, JSON.stringify(issues));
    const outcome = await runPlan(plan, { outDir: join(dir, "out"), reports: [] });
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    // Ten journeys: each first call, then its second with the captured reply ("Hello").
    assert.equal(seen.filter((n) => n === "first").length, 10);
    assert.equal(seen.filter((n) => n === "Hello-again").length, 10);
    assert.equal(seen.length, 20);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
