import assert from "node:assert/strict";
import { join } from "node:path";
import {
  MAX_RESULT_BYTES,
  readRunResult,
  readRunResultFile,
} from "../../../runner/result/read_run_result.ts";
import { RESULT_VERSION, type RunResult } from "../../../runner/model/run_result.ts";
import { sampleResult } from "../../_helpers/result_fixtures.ts";
import { protocolText, runProtocol } from "../../../runner/result/read/mod.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";
import { grpcResult } from "../../_helpers/grpc_result_fixtures.ts";

function doc(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...sampleResult(), ...overrides });
}

/** The sample result, changed by `alter`, as the text of a file. */
function altered(alter: (r: RunResult) => void): string {
  const r = sampleResult();
  alter(r);
  return JSON.stringify(r);
}

function errorOf(text: string): string {
  const read = readRunResult(text);
  assert.ok(!read.ok, "read as valid");
  return read.problems[0].message;
}

Deno.test("readRunResult() accepts a result as a run wrote it", () => {
  const r = readRunResult(doc());
  assert.equal(r.ok, true, r.ok ? "" : r.problems[0].message);
});

Deno.test("readRunResult() still reads a version 1 result (no stored run verdict)", () => {
  const r = readRunResult(doc({ version: 1, verdict: undefined }));
  assert.ok(r.ok, r.ok ? "" : r.problems[0].message);
  assert.equal(r.value.verdict, undefined);
});

Deno.test("readRunResult() refuses a newer format and says to upgrade", () => {
  const r = readRunResult(doc({ version: RESULT_VERSION + 1 }));
  assert.ok(!r.ok && /upgrade tailgate/.test(r.problems[0].message));
});

Deno.test("readRunResult() refuses non-JSON, other documents and missing sections", () => {
  const notJson = readRunResult("{ nope");
  assert.ok(!notJson.ok && notJson.problems[0].message.startsWith("not JSON"));
  const other = readRunResult(JSON.stringify({ schema: "k6/summary" }));
  assert.ok(!other.ok && other.problems[0].message.startsWith("not a tailgate result"));
  const partial = JSON.parse(doc());
  delete partial.stages;
  const missing = readRunResult(JSON.stringify(partial));
  assert.ok(!missing.ok && missing.problems[0].message === "the result lacks `stages`");
});

Deno.test("readRunResult() refuses a count that is not a whole number from 0, naming its JSON path", () => {
  assert.equal(
    errorOf(altered((r) => r.totals.counts.completed = 1e308)),
    "totals.counts.completed is 1e+308: a count is a whole number from 0 to 2^53",
  );
  assert.equal(
    errorOf(altered((r) => r.stages[1].labels[0].counts.scheduled = -5)),
    "stages[1].labels[0].counts.scheduled is -5: a count is a whole number from 0 to 2^53",
  );
  assert.match(
    errorOf(altered((r) => r.intervals[0].counts.errors.timeout = 0.5)),
    /^intervals\[0\]\.counts\.errors\.timeout is 0\.5: a count/,
  );
  assert.match(
    errorOf(altered((r) => (r.stages[0].counts as unknown as Record<string, unknown>).ok = "7")),
    /^stages\[0\]\.counts\.ok is "7": a count/,
  );
});

Deno.test("readRunResult() refuses a duration, rate or latency that is negative or not a number", () => {
  assert.equal(
    errorOf(altered((r) => r.stages[1].durationMs = -1)),
    "stages[1].durationMs is -1: it must be a finite number from 0",
  );
  // JSON has no Infinity or NaN: JSON.stringify writes them as null.
  assert.equal(
    errorOf(altered((r) => r.run.durationMs = Infinity)),
    "run.durationMs is null: it must be a finite number from 0",
  );
  assert.match(
    errorOf(altered((r) => r.stages[1].response.percentilesUs["99"] = -3)),
    /^stages\[1\]\.response\.percentilesUs\.99 is -3: it must be a finite number from 0/,
  );
  assert.match(
    errorOf(altered((r) => r.health.achievedPerSec = -10)),
    /^health\.achievedPerSec is -10/,
  );
});

Deno.test("readRunResult() refuses counts that do not add up, naming the stage and the counts", () => {
  const unaccounted = errorOf(altered((r) => {
    r.stages[1].counts.scheduled += 7;
    r.totals.counts.scheduled += 7;
  }));
  assert.equal(
    unaccounted,
    'stages[1].counts (stage "main"): scheduled 47 but completed 40 in a complete run: 7 ' +
      "requests unaccounted for (a complete run completes every request it schedules)",
  );
  const labels = errorOf(altered((r) => {
    r.stages[1].labels[1].counts.ok -= 1;
    r.stages[1].labels[1].counts.errors.other = (r.stages[1].labels[1].counts.errors.other ?? 0) +
      1;
    r.stages[1].labels[1].counts.statusCodes["200"] -= 1;
  }));
  assert.match(
    labels,
    /^stages\[1\]\.counts \(stage "main"\): ok \d+ is not the sum of its labels' \(\d+\)/,
  );
  // A stage's answers by status code and error kind are its labels' too.
  assert.equal(
    errorOf(altered((r) => {
      for (const c of [r.stages[1].counts, r.totals.counts]) {
        c.statusCodes["200"] -= 1;
        c.statusCodes["201"] = 1;
      }
    })),
    'stages[1].counts (stage "main"): statusCodes.200 ' +
      `${sampleResult().stages[1].counts.statusCodes["200"] - 1} is not the sum of its labels' ` +
      `(${sampleResult().stages[1].counts.statusCodes["200"]})`,
  );
});

Deno.test("readRunResult() refuses status codes that are not the answered requests, naming the counts", () => {
  // 100 ok beside 7 responses by status code: no recorder counts so.
  const forged = errorOf(altered((r) => {
    for (const g of [r.stages[1].labels[0], r.stages[1], r.totals]) g.counts.statusCodes = {};
    r.stages[1].labels[0].counts.statusCodes["200"] = 7;
  }));
  assert.match(
    forged,
    /^stages\[1\]\.labels\[0\]\.counts \(stage "main", label "GET \/a"\): 7 responses by status code but ok \d+ \+ unexpected_status \d+ = \d+ answered$/,
  );
});

Deno.test("readRunResult() refuses stages whose rates or lengths are not its plan's, naming both paths", () => {
  assert.equal(
    errorOf(altered((r) => r.stages[1].fromPerSec = 25)),
    'stages[1].fromPerSec (stage "main") is 25, but its plan\'s plan.load.stages[1].fromPerSec ' +
      "is 20: a run's stages are its plan's",
  );
  assert.equal(
    errorOf(altered((r) => r.plan.load.stages[0].toPerSec = 12)),
    'stages[0].toPerSec (stage "warm") is 10, but its plan\'s plan.load.stages[0].toPerSec ' +
      "is 12: a run's stages are its plan's",
  );
  assert.match(
    errorOf(altered((r) => r.stages[1].durationMs = 1000)),
    /^stages\[1\]\.durationMs \(stage "main"\) is 1000, but its plan's plan\.load\.stages\[1\]\.durationMs is 2000/,
  );
  assert.equal(
    errorOf(altered((r) => r.plan.load.stages.pop())),
    "stages has 2 stages, but its plan's plan.load.stages has 1: a run's stages are its plan's",
  );
});

Deno.test("readRunResult() names the stage and label of a histogram that does not decode", () => {
  const error = errorOf(altered((r) => {
    const hdr = r.stages[1].labels[1].service.hdr;
    r.stages[1].labels[1].service.hdr = hdr.slice(0, 12);
  }));
  assert.match(
    error,
    /^stages\[1\]\.labels\[1\]\.service\.hdr \(stage "main", label "GET \/b", service time\) is damaged: /,
  );
  const count = errorOf(altered((r) => r.intervals[1].response.count += 1));
  assert.match(
    count,
    /^intervals\[1\]\.response \(interval at 1 s, response time\): count \d+ but its histogram holds \d+/,
  );
});

Deno.test("readRunResultFile() refuses a FIFO and a link to /dev/zero at once, naming the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "result.json");
    await makeFifo(path);
    const fifo = await settlesWithin(readRunResultFile(path), 2_000, path);
    assert.ok(!fifo.ok);
    assert.equal(
      fifo.problems[0].message,
      `cannot read ${path}: it is not a regular file (a device, pipe or socket)`,
    );
    await Deno.remove(path);
    await Deno.symlink("/dev/zero", path);
    const zero = await readRunResultFile(path);
    assert.ok(
      !zero.ok &&
        zero.problems[0].message.endsWith("is not a regular file (a device, pipe or socket)"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRunResultFile() refuses a result over the size limit before reading it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "result.json");
    using f = await Deno.open(path, { write: true, create: true });
    await f.truncate(MAX_RESULT_BYTES + 1);
    const read = await readRunResultFile(path);
    assert.ok(!read.ok);
    assert.match(
      read.problems[0].message,
      new RegExp(`^cannot read ${path}: it is ${MAX_RESULT_BYTES + 1} bytes`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readRunResult() reads a result without run.protocol as HTTP/1.1, as it was written", () => {
  const old = altered((r) => {
    delete r.run.protocol;
    delete r.run.maxStreams;
  });
  const read = readRunResult(old);
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.equal(runProtocol(read.value), "http/1.1");
  assert.equal(protocolText(read.value), "HTTP/1.1");
});

Deno.test("readRunResult() refuses a protocol no run speaks, and streams on HTTP/1.1 or out of bounds", () => {
  assert.equal(
    errorOf(altered((r) => (r.run as Record<string, unknown>).protocol = "http/3")),
    'run.protocol is "http/3": it is one of "http/1.1", "h2", "h2c"',
  );
  assert.equal(
    errorOf(altered((r) => r.run.maxStreams = 8)),
    "run.maxStreams is set on a run over http/1.1: only HTTP/2 has streams",
  );
  for (const bad of [0, 1001, 2.5, "8"]) {
    assert.match(
      errorOf(altered((r) => {
        r.run.protocol = "h2";
        (r.run as Record<string, unknown>).maxStreams = bad;
      })),
      /^run\.maxStreams is .+: it is a whole number from 1 to 1000$/,
      String(bad),
    );
  }
  const h2c = readRunResult(
    altered((r) => Object.assign(r.run, { protocol: "h2c", maxStreams: 1 })),
  );
  assert.ok(h2c.ok, h2c.ok ? "" : h2c.problems[0].message);
});

/** The sample result with the contention a run on Linux beside its service writes. */
function withContention(r: RunResult): void {
  for (const interval of r.intervals) {
    interval.contention = { pressureMs: 12.5, stealMs: 0, serviceWaitMs: 3 };
  }
  r.health.contention = {
    source: "service",
    service: { found: "listening_socket", pids: [120, 121], name: "nginx" },
    pressureMs: 25,
    stealMs: 0,
    serviceWaitMs: 6,
    share: 0.006,
    worst: { startMs: 1000, waitMs: 3 },
  };
}

Deno.test("readRunResult() reads the machine's contention, and results written before it", () => {
  const read = readRunResult(altered(withContention));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.equal(read.value.health.contention?.source, "service");
  const before = readRunResult(doc());
  assert.ok(before.ok);
  assert.equal(before.value.health.contention, undefined);
});

Deno.test("readRunResult() refuses contention no run writes, naming its JSON path", () => {
  const refused = (alter: (r: RunResult) => void) =>
    errorOf(altered((r) => {
      withContention(r);
      alter(r);
    }));
  assert.equal(
    refused((r) => r.intervals[1].contention!.serviceWaitMs = -2),
    "intervals[1].contention.serviceWaitMs is -2: it must be a finite number from 0",
  );
  assert.equal(
    refused((r) => r.intervals[0].contention!.pressureMs = Infinity),
    "intervals[0].contention.pressureMs is null: it must be a finite number from 0",
  );
  assert.equal(
    refused((r) => (r.intervals[0] as { contention: unknown }).contention = 5),
    "intervals[0].contention is not an object",
  );
  assert.equal(
    refused((r) => r.health.contention!.stealMs = -1),
    "health.contention.stealMs is -1: it must be a finite number from 0",
  );
  assert.match(
    refused((r) => (r.health.contention as { source: string }).source = "guess"),
    /^health\.contention\.source is "guess": it is one of "service", "pressure", "none"/,
  );
  assert.equal(
    refused((r) => r.health.contention!.share = 1.5),
    "health.contention.share is 1.5: it is a fraction from 0 to 1",
  );
  assert.equal(
    refused((r) => r.health.contention!.service!.pids = [120, -1]),
    "health.contention.service.pids[1] is -1: a process id is a whole number from 1",
  );
  assert.match(
    refused((r) => (r.health.contention!.service as { found: string }).found = "guessed"),
    /^health\.contention\.service\.found is "guessed"/,
  );
  assert.equal(
    refused((r) => r.health.contention!.worst!.waitMs = -4),
    "health.contention.worst.waitMs is -4: it must be a finite number from 0",
  );
});

Deno.test("readRunResult() reads a label's checks and refuses ones that do not add up", () => {
  const check = { text: "/id exists", line: 4, evaluated: 10, failed: 2 };
  const r = readRunResult(altered((r) => r.stages[1].labels[0].checks = [check]));
  assert.ok(r.ok, r.ok ? "" : r.problems[0].message);
  assert.deepEqual(r.value.stages[1].labels[0].checks, [check]);
  assert.equal(
    errorOf(altered((r) => r.stages[1].labels[0].checks = [{ ...check, failed: 11 }])),
    "stages[1].labels[0].checks[0]: more failed (11) than evaluated (10)",
  );
  assert.match(
    errorOf(altered((r) => r.stages[1].labels[0].checks = [{ ...check, evaluated: -1 }])),
    /^stages\[1\]\.labels\[0\]\.checks\[0\]\.evaluated is -1: a count/,
  );
});

Deno.test("readRunResult() reads a gRPC run: statuses by name, messages, run.grpc", () => {
  const read = readRunResult(JSON.stringify(grpcResult()));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  assert.deepEqual(read.value.totals.counts.statusCodes, { OK: 38, UNAVAILABLE: 12 });
  assert.equal(read.value.run.grpc, true);
  assert.equal(
    protocolText(read.value),
    "gRPC over h2c, HTTP/2 cleartext (h2c), up to 8 streams per connection",
  );
});

Deno.test("readRunResult() refuses a status key no run writes, naming its path", () => {
  for (const key of ["SOON", "1014", "ok", "007", "0", "GRPC_1"]) {
    assert.equal(
      errorOf(altered((r) => {
        for (const g of [r.stages[1].labels[0], r.stages[1], r.totals]) {
          g.counts.statusCodes[key] = g.counts.statusCodes["200"];
          delete g.counts.statusCodes["200"];
        }
      })),
      `stages[1].labels[0].counts.statusCodes has the key ${JSON.stringify(key)}: a status is ` +
        'counted by its HTTP number ("503") or its gRPC name ("UNAVAILABLE")',
      key,
    );
  }
});

Deno.test("readRunResult() refuses gRPC messages that are no count or not the sum of their parts", () => {
  const grpc = () => grpcResult();
  const text = (alter: (r: RunResult) => void) => {
    const r = grpc();
    alter(r);
    return JSON.stringify(r);
  };
  assert.equal(
    errorOf(text((r) => r.stages[1].labels[1].counts.messages = -1)),
    "stages[1].labels[1].counts.messages is -1: a count is a whole number from 0 to 2^53",
  );
  assert.equal(
    errorOf(text((r) => r.stages[1].labels[1].counts.messages! += 1)),
    'stages[1].counts (stage "main"): messages 1288 is not the sum of its labels\' (1289)',
  );
  assert.equal(
    errorOf(text((r) => (r.run as Record<string, unknown>).grpc = "yes")),
    'run.grpc is "yes": it is true or absent',
  );
  assert.equal(
    errorOf(text((r) => {
      delete r.run.protocol;
      delete r.run.maxStreams;
    })),
    "run.grpc is set on a run over http/1.1: gRPC runs over HTTP/2",
  );
});
