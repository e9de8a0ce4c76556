import assert from "node:assert/strict";
import { join } from "node:path";
import { checkPlans } from "../../../runner/cli/check_command.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";

/** A plan file with `n` requests of distinct names; its `requests:` key is on line 3. */
async function planFile(dir: string, n: number): Promise<string> {
  const items = Array.from({ length: n }, (_, i) => `  - { name: item ${i}, path: /items/${i} }\n`);
  const path = join(dir, `labels-${n}.yaml`);
  await Deno.writeTextFile(
    path,
    `name: labels\ntarget: http://127.0.0.1:8080\nrequests:\n${items.join("")}` +
      "load: { stages: [{ rate: 10/s, duration: 1s }] }\n",
  );
  return path;
}

Deno.test("check warns of a plan near the label limit and refuses one past it, at `requests:`", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const near = await planFile(dir, 600);
    const warned = await checkPlans([near]);
    assert.equal(warned.exitCode, EXIT_CODES.ok);
    // The label limit, and the tail percentiles its 10-request stage cannot decide.
    assert.match(warned.output!, /labels-600\.yaml: ok, 1 warning\n/);
    assert.match(warned.output!, /^note: 1 plan runs too short for .* \(labels-600\.yaml\)/m);
    assert.match(warned.notes.join("\n"), /labels-600\.yaml:3:1.*600 requests.*near the limit/s);
    const past = await planFile(dir, 1001);
    const refused = await checkPlans([past]);
    assert.equal(refused.exitCode, EXIT_CODES.usage);
    assert.match(refused.notes.join("\n"), /labels-1001\.yaml:3:1.*at most 1000/s);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check lists a plan's setup and teardown steps with what each captures", async () => {
  const plans = new URL("../../../plans/examples/login_first.yaml", import.meta.url).pathname;
  const outcome = await checkPlans([plans]);
  assert.equal(outcome.exitCode, EXIT_CODES.ok);
  assert.match(
    outcome.output!,
    /\n {2}setup: login: POST http:\/\/127\.0\.0\.1:8080\/login, captures token \(json \/access_token\), session \(header set-cookie\)\n {2}teardown: logout: DELETE http:\/\/127\.0\.0\.1:8080\/session\n/,
  );
});

Deno.test("check notes a default regression percentile a stage is too short for once, unless an SLO judges it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const write = async (name: string, extra = "") => {
      const path = join(dir, `${name}.yaml`);
      await Deno.writeTextFile(
        path,
        `name: ${name}\ntarget: http://127.0.0.1:8080\nrequests: [{ path: / }]\n` +
          `load: { stages: [{ rate: 100/s, duration: 30s }] }\n${extra}`,
      );
      return path;
    };
    // Two short plans that judge no p99.9: one line for both, no note on each.
    const quiet = await checkPlans([
      await write("smoke"),
      await write("health", "slo: [p99 < 1s]\n"),
    ]);
    assert.equal(quiet.exitCode, EXIT_CODES.ok);
    assert.deepEqual(quiet.notes, []);
    assert.match(quiet.output!, /smoke\.yaml: ok\n/);
    const once = quiet.output!.split("\n").filter((l) => l.includes("p99.9"));
    assert.deepEqual(once, [
      "note: 2 plans run too short for the default regression check's p99.9 (smoke.yaml, " +
      "health.yaml): it is skipped there, and no SLO of those plans judges it; run longer, or " +
      'name `regression:` metrics (docs/plan.md, "regression")',
    ]);
    // A plan whose SLO judges p99.9 is told at the stage, with the length that would do.
    const tail = await checkPlans([await write("tail", "slo: [p99.9 < 1s]\n")]);
    assert.match(tail.output!, /tail\.yaml: ok, 1 warning, 1 note/); // the SLO: too few for p99.9
    const notes = tail.notes.join("\n");
    assert.match(
      notes,
      /tail\.yaml:4:1: note: p99\.9 cannot be judged on stage "100\/s for 30s" by a regression check/,
    );
    assert.match(notes, /hint: run the stage for at least 100s at 100\/s /);
    assert.doesNotMatch(tail.output!, /^note:/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check validates a plan's service, each problem located, and starts nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "served.yaml");
    await Deno.writeTextFile(
      path,
      "name: served\ntarget: http://127.0.0.1:3917\nrequests: [{ path: / }]\n" +
        "load: { stages: [{ rate: 10/s, duration: 1s }] }\n" +
        `service: { start: "touch ${join(dir, "started")}", ready: ":3917", timout: 30s }\n`,
    );
    const checked = await checkPlans([path]);
    assert.equal(checked.exitCode, EXIT_CODES.usage);
    const notes = checked.notes.join("\n");
    assert.match(
      notes,
      /served\.yaml:5:\d+: error: `:3917` is neither an http\(s\) URL nor a port/,
    );
    assert.match(
      notes,
      /hint: write `http:\/\/127\.0\.0\.1:3917`, or the port alone: `ready: 3917`/,
    );
    assert.match(notes, /served\.yaml:5:\d+: error: unknown key `timout` in `service`/);
    assert.match(notes, /did you mean `timeout`\?/);
    await assert.rejects(Deno.stat(join(dir, "started")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("check accepts the gRPC example plan and locates a wrong method and an unknown field", async () => {
  const example = new URL("../../../plans/examples/grpc/greeter.yaml", import.meta.url).pathname;
  const ok = await checkPlans([example]);
  assert.equal(ok.exitCode, EXIT_CODES.ok, ok.notes.join("\n"));
  assert.match(ok.output!, /greeter\.yaml: ok\n/);
  const text = await Deno.readTextFile(example);
  const dir = join(example, "..");
  const bad = join(dir, "bad-greeter.test.yaml");
  const field = join(dir, "bad-field.test.yaml");
  try {
    await Deno.writeTextFile(bad, text.replace("Greeter/SayHello", "Greeter/SayHelo"));
    await Deno.writeTextFile(field, text.replace("message: { name:", "message: { nme:"));
    const refused = await checkPlans([bad, field]);
    assert.equal(refused.exitCode, EXIT_CODES.usage);
    const notes = refused.notes.join("\n");
    assert.match(
      notes,
      /bad-greeter\.test\.yaml:7:29: error: no method `SayHelo` in helloworld\.Greeter\n.*\n.*\n\s*hint: did you mean `helloworld\.Greeter\/SayHello`\?/,
    );
    assert.match(
      notes,
      /bad-field\.test\.yaml:7:69: error: helloworld\.HelloRequest has no field `nme`\n.*\n.*\n\s*hint: did you mean `name`\?/,
    );
  } finally {
    await Deno.remove(bad);
    await Deno.remove(field);
  }
});
