import assert from "node:assert/strict";
import { exitCodeOf } from "../../../runner/result/read/mod.ts";
import { problemText } from "../../../runner/model/result.ts";
import { EXIT_CODES } from "../../../runner/model/exit_codes.ts";
import { createServer } from "node:net";
import { join } from "node:path";
import { runPlanCommand } from "../../../runner/cli/run_command.ts";
import { parseRunArgs } from "../../../runner/cli/run_args.ts";
import { retarget } from "../../../runner/plan/retarget.ts";
import { readRunResult } from "../../../runner/result/read_run_result.ts";
import { startTarget } from "../../../runner/target/mod.ts";
import { startTlsTarget } from "../../_helpers/tls_target_process.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../../runner/engine/native/libssl_tls.ts";
import { H2_CERT } from "../../_helpers/http2_servers.ts";
import { selfSignedCaTrue } from "../../_helpers/openssl_certs.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { tcpServer } from "../../_helpers/tcp_server.ts";
import { openFilesLimit } from "../../../runner/engine/preflight.ts";
import { makeFifo, settlesWithin } from "../../_helpers/special_files.ts";
import { gitIn, gitOrigin } from "../../_helpers/git_fixtures.ts";
import { loadHistory } from "../../../runner/history/mod.ts";
import { freePort } from "../../_helpers/free_port.ts";
import { serveCommand } from "../../_helpers/service_commands.ts";

async function tempDir(): Promise<string & AsyncDisposable> {
  const dir = await Deno.makeTempDir();
  return Object.assign(dir, {
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  }) as string & AsyncDisposable;
}

async function planFile(dir: string, target: string, extra = ""): Promise<string> {
  const file = join(dir, "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: cli-run
target: ${target}
requests: [{ path: /x }]
load:
  connections: 2
  stages: [{ rate: 200/s, duration: 500ms }]
${extra}`,
  );
  return file;
}

Deno.test("tailgate run writes a readable result.json and a summary with both latencies", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using dir = await tempDir();
  const file = await planFile(String(dir), target.url);
  const lines: string[] = [];
  const outcome = await runPlanCommand(
    { planPath: file, outDir: join(String(dir), "out"), caCertFiles: [] },
    (l) => lines.push(l),
  );
  const read = readRunResult(await Deno.readTextFile(join(String(dir), "out", "result.json")));
  assert.ok(read.ok);
  // No gate: the run passes, tool-limited or not (the reports say so when it is).
  assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
  assert.equal(read.value.verdict?.summary, "no gates");
  assert.equal(read.value.totals.counts.completed, 100);
  assert.equal(read.value.run.complete, true);
  assert.match(outcome.output!, /response .*\n .*service/);
  // The default reports, each written atomically: no temporary file is left behind.
  const written = [...Deno.readDirSync(join(String(dir), "out"))].map((e) => e.name).sort();
  assert.deepEqual(written, ["junit.xml", "report.html", "result.json", "summary.md"]);
  for (const name of written) assert.match(outcome.output!, new RegExp(`wrote .*${name}`));
  const md = await Deno.readTextFile(join(String(dir), "out", "summary.md"));
  assert.match(md, /`report\.html` in this run's artifact/);
});

Deno.test("tailgate run --trace of an ad-hoc URL records plan.trace and the slowest's trace ids", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using dir = await tempDir();
  const args = parseRunArgs([
    `${target.url}/x`,
    ...["--rate", "200/s", "--duration", "500ms", "--trace", "--report", "json"],
    ...["--out", join(String(dir), "out"), "--no-baseline"],
  ]);
  assert.ok(args.ok, args.ok ? "" : args.problems.map(problemText).join("\n"));
  const outcome = await runPlanCommand(args.value, () => {});
  assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
  const read = readRunResult(await Deno.readTextFile(join(String(dir), "out", "result.json")));
  assert.ok(read.ok);
  assert.deepEqual(read.value.plan.trace, {});
  const [label] = read.value.stages.at(-1)!.labels;
  assert.equal(label.slowest!.length, 10);
  assert.ok(label.slowest!.every((r) => /^[0-9a-f]{32}$/.test(r.traceId!)));
  assert.equal(read.value.intervals[0].labels[0].slowest, undefined);
});

for (const tls of [false, true]) {
  Deno.test(`tailgate run with load.http: 2 speaks ${tls ? "h2 by ALPN" : "h2c"} and records it`, async () => {
    await using target = tls
      ? await startTlsTarget(["--delay", "0"])
      : await startTarget({ mode: "hello", port: 0 });
    await using dir = await tempDir();
    const file = join(String(dir), "plan.yaml");
    await Deno.writeTextFile(
      file,
      `name: cli-h2
target: ${target.url}
requests: [{ path: /x }]
load:
  http: 2
  max_streams: 4
  connections: 2
  stages: [{ rate: 200/s, duration: 500ms }]
`,
    );
    const ca = join(String(dir), "ca.pem");
    await Deno.writeTextFile(ca, H2_CERT);
    const outcome = await runPlanCommand(
      { planPath: file, outDir: join(String(dir), "out"), caCertFiles: tls ? [ca] : [] },
      () => {},
    );
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    const read = readRunResult(await Deno.readTextFile(join(String(dir), "out", "result.json")));
    assert.ok(read.ok);
    assert.equal(read.value.totals.counts.ok, 100);
    assert.equal(read.value.run.protocol, tls ? "h2" : "h2c");
    assert.equal(read.value.run.maxStreams, 4);
    assert.equal(read.value.health.http2?.streamsPerConnection, 4);
    // Both on the native path where it runs (h2 by OpenSSL over its sockets).
    assert.equal(read.value.health.io, openLibcNet() && (!tls || openLibSsl()) ? "native" : "deno");
    const md = await Deno.readTextFile(join(String(dir), "out", "summary.md"));
    assert.match(md, tls ? /HTTP\/2 over TLS \(h2\)/ : /HTTP\/2 cleartext \(h2c\)/);
  });
}

Deno.test("tailgate run --report-url links the HTML report from the Markdown summary", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using dir = await tempDir();
  const file = await planFile(String(dir), target.url);
  const parsed = parseRunArgs([
    file,
    "--out",
    join(String(dir), "out"),
    "--report",
    "md",
    "--report-url",
    "https://ci.example/runs/7",
  ]);
  assert.ok(parsed.ok);
  await runPlanCommand(parsed.value, () => {});
  const md = await Deno.readTextFile(join(String(dir), "out", "summary.md"));
  assert.match(md, /\]\(https:\/\/ci\.example\/runs\/7\)/);
  const written = [...Deno.readDirSync(join(String(dir), "out"))].map((e) => e.name).sort();
  assert.deepEqual(written, ["result.json", "summary.md"]);
});

Deno.test("tailgate run exits 4 with one sentence when the target refuses connections", async () => {
  await using dir = await tempDir();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close(); // a port nobody listens on
  const file = await planFile(String(dir), `http://127.0.0.1:${port}`);
  const outcome = await runPlanCommand(
    { planPath: file, outDir: String(dir), caCertFiles: [] },
    () => {},
  );
  assert.equal(outcome.exitCode, 4);
  assert.match(outcome.errors[0], /refused the connection: is the target running\?/);
});

Deno.test("tailgate run shows the plan's warnings before it runs: a stage that cannot work as written", async () => {
  await using dir = await tempDir();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  // 200/s x 50 ms = 10 requests in flight at the p50 bound, against 2 connections.
  const file = await planFile(String(dir), `http://127.0.0.1:${port}`, "slo: [p50 < 50ms]\n");
  const lines: string[] = [];
  const outcome = await runPlanCommand(
    { planPath: file, outDir: String(dir), caCertFiles: [] },
    (line) => lines.push(line),
  );
  assert.equal(outcome.exitCode, 4);
  const warning = lines.find((l) => l.includes("warning:"));
  assert.ok(warning, lines.join("\n"));
  assert.match(
    warning,
    /plan\.yaml:6:\d+: warning: at 200\/s, answers of 50ms \(the p50 bound\) keep 10/,
  );
});

/**
 * An HTTP server on 127.0.0.1 that answers every request until `die()` drops every socket, which
 * it does itself once it has answered `lives` requests.
 */
async function mortalServer(lives: number) {
  const sockets = new Set<import("node:net").Socket>();
  let answered = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      const requests = chunk.toString("latin1").split("\r\n\r\n").length - 1;
      for (let i = 0; i < requests && answered < lives; i++, answered++) {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
      }
      if (answered >= lives) die();
    });
  });
  const die = () => {
    server.close();
    for (const socket of sockets) socket.destroy();
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, die };
}

Deno.test("a target that stops answering mid-run ends the run with exit 4, whatever its SLOs", async () => {
  await using dir = await tempDir();
  // It dies once it has answered 150 requests, 0.3 s into the run's schedule: dying at a fixed
  // time from the start, on a busy machine it could die before the run began (no run, no result).
  const target = await mortalServer(150);
  const file = join(String(dir), "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: mortal
target: ${target.url}
requests: [{ path: /x, timeout: 500ms }]
load:
  connections: 4
  stages: [{ rate: 500/s, duration: 3s }]
slo: [p99 < 1h]
`,
  );
  try {
    const outcome = await runPlanCommand(
      { planPath: file, outDir: join(String(dir), "out"), caCertFiles: [] },
      () => {},
    );
    assert.equal(outcome.exitCode, 4, outcome.errors.join("\n"));
    const read = readRunResult(await Deno.readTextFile(join(String(dir), "out", "result.json")));
    assert.ok(read.ok);
    const verdict = read.value.verdict!;
    assert.equal(verdict.status, "fail");
    assert.ok(verdict.targetLost!.sinceMs <= 1_000, JSON.stringify(verdict.targetLost));
    assert.match(verdict.reason!, /the target stopped answering/);
    // The lost target is a failed gate of its own, counted in every report.
    assert.deepEqual(
      [read.value.verdicts[0].name, read.value.verdicts[0].status],
      ["target answered to the end", "fail"],
    );
    // Its failures are not fast latencies: p99 falls among them, never a pass.
    assert.equal(read.value.verdicts[1].status, "fail");
    assert.equal(read.value.verdicts[1].censored, true);
  } finally {
    target.die();
  }
});

Deno.test("tailgate run refuses an invalid plan with located errors and exit 2, sending nothing", async () => {
  await using dir = await tempDir();
  const file = await planFile(String(dir), "http://127.0.0.1:9", "slo: [p99 < 10 parsecs]\n");
  const outcome = await runPlanCommand(
    { planPath: file, outDir: String(dir), caCertFiles: [] },
    () => {},
  );
  assert.equal(outcome.exitCode, 2);
  assert.match(outcome.notes[0], /plan\.yaml:7:/);
});

Deno.test("parseRunArgs() reads the plan and options and names mistakes", () => {
  const ok = parseRunArgs(["p.yaml", "--out", "o", "--target", "http://127.0.0.1:1"]);
  assert.ok(ok.ok && ok.value.outDir === "o" && ok.value.target === "http://127.0.0.1:1");
  const none = parseRunArgs([]);
  assert.ok(!none.ok && /name the plan/.test(problemText(none.problems[0])));
  const bad = parseRunArgs(["p.yaml", "--target", "ftp://x"]);
  assert.ok(!bad.ok && /not an http\(s\) URL/.test(problemText(bad.problems[0])));
  const two = parseRunArgs(["a.yaml", "b.yaml"]);
  assert.ok(!two.ok && /one plan per run/.test(problemText(two.problems[0])));
});

Deno.test("parseRunArgs() reads --seed into the plan's overrides, and refuses a non-number", () => {
  const seeded = parseRunArgs(["p.yaml", "--seed", "007"]);
  assert.ok(seeded.ok);
  assert.equal(seeded.value.overrides?.seed, "7");
  const adHoc = parseRunArgs([
    "http://127.0.0.1:1/",
    "--rate",
    "1/s",
    "--duration",
    "1s",
    "--seed",
    "3",
  ]);
  assert.ok(adHoc.ok && adHoc.value.overrides?.seed === "3");
  const bad = parseRunArgs(["p.yaml", "--seed=-1"]);
  assert.ok(!bad.ok && /--seed `-1`: give a whole number/.test(problemText(bad.problems[0])));
});

Deno.test("tailgate run --print-plan says a plan without load.seed draws one per run; --seed writes it", async () => {
  await using dir = await tempDir();
  const file = await planFile(String(dir), "http://127.0.0.1:9", "vars: { id: uuid }\n");
  const print = (overrides = {}) =>
    runPlanCommand(
      { planPath: file, outDir: String(dir), caCertFiles: [], printPlan: true, overrides },
      () => {},
    );
  const drawn = await print();
  assert.equal(drawn.exitCode, 0);
  assert.match(
    drawn.output!,
    /^load: # no seed: each run draws its own \(result\.json: plan\.load\.seed\); --seed N replays one$/m,
  );
  const fixed = await print({ seed: "7" });
  assert.doesNotMatch(fixed.output!, /draws its own/);
  assert.match(fixed.output!, /^load:\n {2}seed: 7\n {2}connections: 2$/m);
});

Deno.test("tailgate run --shard refuses a plan without load.seed unless the shards share --start-at", async () => {
  await using dir = await tempDir();
  const file = await planFile(String(dir), "http://127.0.0.1:9", "vars: { id: uuid }\n");
  const run = (options: Partial<Parameters<typeof runPlanCommand>[0]>) =>
    runPlanCommand(
      { planPath: file, outDir: String(dir), caCertFiles: [], ...options },
      () => {},
    );
  const alone = await run({ shard: { index: 0, count: 2 } });
  assert.equal(alone.exitCode, EXIT_CODES.usage);
  assert.match(alone.errors[0], /--shard 0\/2: the shards of one run must draw from one seed/);
  assert.match(alone.errors[0], /--start-at TIME .* or the same --seed N/);
  // A seed or a start instant shared: the run goes on (to find nothing listening at :9).
  const seeded = await run({ shard: { index: 0, count: 2 }, overrides: { seed: "7" } });
  assert.equal(seeded.exitCode, EXIT_CODES.unreachable);
});

Deno.test("retarget() moves every request to the new base and keeps paths and queries", () => {
  const { plan } = parseText(`name: t
target: http://127.0.0.1:8080/api
requests: [{ path: /orders?limit=2 }, { path: / }]
load: { stages: [{ rate: 1/s, duration: 1s }] }
`);
  assert.ok(plan);
  const moved = retarget(plan, "http://127.0.0.1:9999/v2/");
  assert.deepEqual(moved.requests.map((r) => r.url), [
    "http://127.0.0.1:9999/v2/orders?limit=2",
    "http://127.0.0.1:9999/v2/",
  ]);
});

Deno.test("tailgate run checks --out and --ca-cert before the run: exit 2, the option named", async () => {
  await using dir = await tempDir();
  const file = await planFile(String(dir), "http://127.0.0.1:9");
  const aFile = join(String(dir), "not-a-folder");
  await Deno.writeTextFile(aFile, "x");
  for (const outDir of [aFile, join(aFile, "sub")]) {
    const outcome = await runPlanCommand({ planPath: file, outDir, caCertFiles: [] }, () => {});
    assert.equal(outcome.exitCode, 2, outcome.errors.join("\n"));
    assert.match(
      outcome.errors[0],
      /^--out .*not-a-folder.*: .*not-a-folder is not a folder/,
    );
  }
  const missing = join(String(dir), "missing.pem");
  const outcome = await runPlanCommand(
    { planPath: file, outDir: join(String(dir), "out"), caCertFiles: [missing] },
    () => {},
  );
  assert.equal(outcome.exitCode, 2);
  assert.match(outcome.errors[0], /--ca-cert .*missing\.pem: does not exist/);
});

Deno.test("tailgate run refuses a --ca-cert that is a FIFO or no PEM, without blocking", async () => {
  await using dir = await tempDir();
  const file = await planFile(String(dir), "http://127.0.0.1:9");
  const fifo = join(String(dir), "ca.pem");
  await makeFifo(fifo);
  const notPem = join(String(dir), "ca.txt");
  await Deno.writeTextFile(notPem, "not a certificate\n");
  const outDir = join(String(dir), "out");
  const fromFifo = await settlesWithin(
    runPlanCommand({ planPath: file, outDir, caCertFiles: [fifo] }, () => {}),
    5_000,
    fifo,
  );
  assert.equal(fromFifo.exitCode, 2);
  assert.match(fromFifo.errors[0], /^--ca-cert .*ca\.pem: is not a regular file/);
  const fromText = await runPlanCommand(
    { planPath: file, outDir, caCertFiles: [notPem] },
    () => {},
  );
  assert.equal(fromText.exitCode, 2);
  assert.match(fromText.errors[0], /^--ca-cert .*ca\.txt: holds no PEM certificate/);
});

Deno.test("tailgate run refuses --target with credentials, without echoing them", () => {
  const parsed = parseRunArgs(["plan.yaml", "--target", "http://ops:hunter2@127.0.0.1:9"]);
  assert.equal(parsed.ok, false);
  const errors = parsed.ok ? [] : parsed.problems.map(problemText);
  assert.match(errors[0], /^--target: the URL carries credentials/);
  assert.ok(!errors[0].includes("hunter2"));
});

Deno.test("tailgate run's progress lines print a hostile stage name inert", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using dir = await tempDir();
  const file = join(String(dir), "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: hostile
target: ${target.url}
requests: [{ path: /x }]
load:
  connections: 2
  stages: [{ name: "x\\e[2J::error::y", rate: 50/s, duration: 2500ms }]
`,
  );
  const lines: string[] = [];
  await runPlanCommand(
    { planPath: file, outDir: join(String(dir), "out"), caCertFiles: [] },
    (l) => lines.push(l),
  );
  const progress = lines.filter((l) => l.startsWith("[x"));
  assert.ok(progress.length > 0, lines.join("\n"));
  for (const l of progress) {
    assert.ok(!l.includes("\u001b"), "no raw escape reaches the terminal");
    assert.ok(l.startsWith("[x\\u001b[2J::error::y "), l);
  }
});

Deno.test("tailgate run refuses more connections than the open-files limit allows, before sending", async () => {
  const limit = await openFilesLimit();
  if (limit === undefined || limit >= 100_064) return; // this machine would allow them
  await using target = tcpServer(async () => {});
  await using dir = await tempDir();
  const file = await planFile(String(dir), target.url, "");
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(
    file,
    text.replace("connections: 2", "connections: 2\n  max_connections: 100000"),
  );
  const outcome = await runPlanCommand(
    { planPath: file, outDir: String(dir), caCertFiles: [] },
    () => {},
  );
  assert.equal(outcome.exitCode, 2);
  assert.match(outcome.errors[0], /up to 100000 connections .* \(ulimit -n\)/);
  assert.equal(target.accepted(), 0, "not even the reachability check connected");
});

Deno.test("Ctrl-C while a run waits for --start-at ends it at once: nothing sent, exit 3", async () => {
  /** What each connection received: the pre-flight's unfinished head, and no request. */
  const received: string[] = [];
  await using target = tcpServer(async (conn) => {
    const buffer = new Uint8Array(4096);
    const index = received.push("") - 1;
    for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
      received[index] += new TextDecoder().decode(buffer.subarray(0, n));
    }
  });
  await using dir = await tempDir();
  const file = await planFile(String(dir), target.url);
  const outDir = join(String(dir), "out");
  const controller = new AbortController();
  const lines: string[] = [];
  let stop: ReturnType<typeof setTimeout> | undefined;
  const startedMs = Date.now();
  const outcome = await runPlanCommand(
    { planPath: file, outDir, caCertFiles: [], startAtEpochMs: startedMs + 20_000 },
    (line) => {
      lines.push(line);
      // Ctrl-C a moment after the wait began, once the connections are open.
      if (/for the common start time/.test(line)) stop = setTimeout(() => controller.abort(), 500);
    },
    controller.signal,
  );
  clearTimeout(stop);
  assert.ok(Date.now() - startedMs < 10_000, "it stopped, not waited for the start instant");
  assert.equal(outcome.exitCode, 3, outcome.errors.join("\n"));
  assert.match(
    outcome.errors[0],
    /^stopped before the start instant \(--start-at \S+Z\); nothing was sent/,
  );
  const requests = received.filter((bytes) => bytes.includes("\r\n\r\n"));
  assert.deepEqual(requests, [], "no request head was ever finished");
  assert.ok(received.some((bytes) => bytes.startsWith("HEAD / HTTP/1.1\r\n")), "the probe came");
  // Nothing was measured: no result, and no summary of "0 of 0 requests in -15.9s".
  assert.equal(outcome.output, undefined);
  assert.equal(outcome.result, undefined);
  const written = await Array.fromAsync(Deno.readDir(outDir)).catch((e) => {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  });
  assert.deepEqual(written, []);
});

Deno.test("tailgate run on an untrusted certificate exits 4 up front, naming --ca-cert, sending nothing", async () => {
  const tls = new URL("../../testdata/tls/", import.meta.url);
  const cert = await Deno.readTextFile(new URL("cert.pem", tls));
  const key = await Deno.readTextFile(new URL("key.pem", tls));
  let requests = 0;
  await using server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert,
    key,
    onListen: () => {},
  }, () => {
    requests++;
    return new Response("ok");
  });
  await using dir = await tempDir();
  const file = await planFile(String(dir), `https://127.0.0.1:${server.addr.port}`);
  const outDir = join(String(dir), "out");
  const lines: string[] = [];
  const outcome = await runPlanCommand(
    { planPath: file, outDir, caCertFiles: [] },
    (l) => lines.push(l),
  );
  assert.equal(outcome.exitCode, 4, [...outcome.errors, ...lines].join("\n"));
  assert.match(
    outcome.errors[0],
    /the target's TLS certificate is not trusted: .*; pass --ca-cert FILE with the CA that signed it/,
  );
  assert.equal(requests, 0);
  assert.equal(outcome.result, undefined, "no run, so no result");
  // With the certificate trusted, the same plan runs.
  const pemFile = join(String(dir), "ca.pem");
  await Deno.writeTextFile(pemFile, cert);
  const trusted = await runPlanCommand(
    { planPath: file, outDir, caCertFiles: [pemFile] },
    () => {},
  );
  assert.equal(trusted.exitCode, 0, trusted.errors.join("\n"));
  assert.equal(requests, 100);
});

Deno.test({
  name:
    "tailgate run --ca-cert takes the CA:TRUE certificate `openssl req -x509` makes, as curl does",
  // The run's TLS is OpenSSL's on the native path; Deno's (rustls) refuses it (preflight_test.ts).
  ignore: !openLibcNet() || !openLibSsl() || Deno.env.get("TAILGATE_IO") === "deno",
  fn: async () => {
    const pair = await selfSignedCaTrue();
    let requests = 0;
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, ...pair },
      () => (requests++, new Response("ok")),
    );
    await using dir = await tempDir();
    const pemFile = join(String(dir), "cert.pem");
    await Deno.writeTextFile(pemFile, pair.cert);
    const outcome = await runPlanCommand({
      planPath: await planFile(String(dir), `https://127.0.0.1:${server.addr.port}`),
      outDir: join(String(dir), "out"),
      caCertFiles: [pemFile],
    }, () => {});
    assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    assert.equal(requests, 100);
  },
});

Deno.test("tailgate run of a plan without SLOs against a server answering 403 fails, exit 1", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("forbidden", { status: 403 }),
  );
  await using dir = await tempDir();
  const url = `http://127.0.0.1:${server.addr.port}`;
  const outDir = join(String(dir), "out");
  const outcome = await runPlanCommand(
    { planPath: await planFile(String(dir), url), outDir, caCertFiles: [] },
    () => {},
  );
  assert.equal(outcome.exitCode, 1, [...outcome.errors, outcome.output].join("\n"));
  assert.match(outcome.output!, /error_rate <= 1% \(implicit\)/);
  assert.match(outcome.output!, /✗ FAIL: 1 gate: 1 fail/);
  assert.doesNotMatch(outcome.output!, /PASS/);
  const read = readRunResult(await Deno.readTextFile(join(outDir, "result.json")));
  assert.ok(read.ok);
  assert.deepEqual(read.value.verdicts.map((v) => [v.name, v.status, v.implicit]), [
    ["error_rate <= 1% (implicit)", "fail", true],
  ]);
  const md = await Deno.readTextFile(join(outDir, "summary.md"));
  assert.match(md, /^## ❌ tailgate: cli-run — fail/);
  // The plan's explicit word lets the errors pass.
  const allowed = await runPlanCommand(
    {
      planPath: await planFile(String(dir), url, "allow_errors: true\n"),
      outDir: join(String(dir), "allowed"),
      caCertFiles: [],
    },
    () => {},
  );
  assert.equal(allowed.exitCode, 0, allowed.errors.join("\n"));
  assert.equal(allowed.result?.verdict?.summary, "no gates");
  assert.equal(allowed.result?.plan.allowErrors, true);
});

/** An in-process server on port 0 that answers `handler`, ended when disposed. */
function localServer(handler: () => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, handler);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/**
 * A 20 s plan at 100/s with `slos`, run with --fail-fast into `dir`/out by cli.ts in a process of
 * its own: the run's CPU share is then tailgate's alone, not that of every test file the parallel
 * suite runs in this process (once read as 135% of a core: a tool-limited stop, exit 3).
 */
async function runFailFast(dir: string, target: string, slos: string[]) {
  const file = join(dir, "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: fail-fast
target: ${target}
requests: [{ path: /x }]
load:
  connections: 4
  stages: [{ name: steady, rate: 100/s, duration: 20s }]
slo: ${JSON.stringify(slos)}
`,
  );
  const cli = new URL("../../../cli.ts", import.meta.url).pathname;
  const args = ["run", "-A", cli, "run", file, "--out", join(dir, "out"), "--fail-fast"];
  const startedMs = Date.now();
  const done = await new Deno.Command(Deno.execPath(), {
    args: [...args, "--no-baseline"],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const tookMs = Date.now() - startedMs;
  const text = new TextDecoder().decode(done.stdout) + new TextDecoder().decode(done.stderr);
  const read = readRunResult(await Deno.readTextFile(join(dir, "out", "result.json")));
  assert.ok(read.ok, read.ok ? "" : read.problems[0].message);
  return { outcome: { exitCode: done.code, text }, result: read.value, tookMs };
}

Deno.test("run --fail-fast on a server answering 500 stops within seconds, fails, and writes it all", async () => {
  await using server = localServer(() => new Response("no", { status: 500 }));
  await using dir = await tempDir();
  // A fail-fast stop of a tool-limited run is invalid (exit 3): the loose p99 < 5s sets the run's
  // lateness limit at 500 ms, which a busy machine keeps (beside a busy loop on each core, p99 <
  // 100ms's 10 ms limit was passed by a dispatch lag of 27 ms).
  const { outcome, result, tookMs } = await runFailFast(String(dir), server.url, [
    "error_rate < 1%",
    "p99 < 5s",
  ]);
  assert.equal(outcome.exitCode, 1, outcome.text);
  assert.ok(tookMs < 10_000, `took ${tookMs} ms of a 20 s plan`);
  assert.equal(result.run.complete, false);
  assert.equal(result.run.stopReason, "fail_fast");
  const stop = result.run.stoppedBy!;
  assert.deepEqual([stop.slo, stop.line], ["error_rate < 1%", 7]);
  assert.match(stop.reason, /^\d+ requests already failed, of the 2000 planned in stage "steady"/);
  assert.ok(stop.atMs < 6_000, `stopped at ${stop.atMs} ms`);
  // The stopping SLO failed for certain, and the run with it: exit 1, not 3.
  const errors = result.verdicts.find((v) => v.name === "error_rate < 1%")!;
  assert.equal(errors.status, "fail");
  assert.match(errors.message, /^failed for certain \(fail-fast stopped the run \d+\.\d s in\)/);
  assert.equal(result.verdict!.status, "fail");
  assert.match(result.verdict!.reason!, /^fail-fast stopped the run/);
  assert.match(outcome.text, /^stopped by fail-fast: /m);
  // Every report of a normal run, each saying it was stopped.
  const written = [...Deno.readDirSync(join(String(dir), "out"))].map((e) => e.name).sort();
  assert.deepEqual(written, ["junit.xml", "report.html", "result.json", "summary.md"]);
  const md = await Deno.readTextFile(join(String(dir), "out", "summary.md"));
  assert.match(md, /fail-fast stopped the run/);
});

Deno.test("run --fail-fast stops on requests outstanding past the bound, before any fails", async () => {
  let release = () => {};
  const released = new Promise<void>((r) => release = r);
  await using server = localServer(async () => {
    await released;
    return new Response("late");
  });
  await using dir = await tempDir();
  try {
    // p99 < 1s sets the run's lateness limit at 100 ms, which a busy machine keeps: with p99 <
    // 50ms's 10 ms, the stop of a run the machine held back was rightly invalid (exit 3).
    const { outcome, result, tookMs } = await runFailFast(String(dir), server.url, ["p99 < 1s"]);
    assert.equal(outcome.exitCode, 1, outcome.text);
    // Certain about 4 s in (second 0's requests 2 s overdue, two reports), plus the setup.
    assert.ok(tookMs < 15_000, `took ${tookMs} ms of a 20 s plan`);
    assert.equal(result.run.stopReason, "fail_fast");
    assert.match(
      result.run.stoppedBy!.reason,
      /^\d+ requests already failed or are outstanding for over 2s, of the 2000 planned/,
    );
    assert.equal(result.verdicts[0].status, "fail");
  } finally {
    release();
  }
});

Deno.test("run --fail-fast against a healthy server runs to the end and passes", async () => {
  // p90 < 5s sets the run's lateness limit at 500 ms: under the whole suite in parallel CI once
  // read a send lag over p90 < 1s's 100 ms, and a tool-limited run exits 3, not 0.
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using dir = await tempDir();
  const file = join(String(dir), "plan.yaml");
  await Deno.writeTextFile(
    file,
    `name: healthy
target: ${target.url}
requests: [{ path: /x }]
load: { connections: 4, stages: [{ rate: 100/s, duration: 2s }] }
slo: [p90 < 5s, error_rate < 5%]
fail_fast: true
`,
  );
  const parsed = parseRunArgs([file, "--out", join(String(dir), "out")]);
  assert.ok(parsed.ok);
  const outcome = await runPlanCommand(parsed.value, () => {});
  const result = outcome.result!;
  // Fail-fast never stops it: it runs to the end.
  assert.equal(result.run.complete, true);
  assert.equal(result.run.stopReason, "completed");
  assert.equal(result.run.stoppedBy, undefined);
  assert.equal(result.totals.counts.completed, 200);
  // And it passes, unless the whole suite in parallel held the generator back (CI read exit 3
  // twice): then its verdict is inconclusive and says so, never a fail, and exits as the default
  // fail-on says (a warning when only the runner left its gates undecided).
  const verdict = result.verdict!;
  assert.equal(
    outcome.exitCode,
    verdict.status === "inconclusive" ? exitCodeOf(verdict) : EXIT_CODES.ok,
    `${verdict.status}: ${verdict.summary}; ${result.health.reasons?.join("; ")}; ${
      result.verdicts.map((v) => v.message).join("; ")
    }`,
  );
  assert.notEqual(verdict.status, "fail");
});

Deno.test("parseRunArgs() reads --fail-fast and --no-fail-fast, and refuses both at once", () => {
  const read = (...flags: string[]) => {
    const r = parseRunArgs(["plan.yaml", ...flags]);
    return r.ok ? r.value.failFast : r.problems.map(problemText);
  };
  assert.equal(read(), undefined);
  assert.equal(read("--fail-fast"), true);
  assert.equal(read("--no-fail-fast"), false);
  assert.deepEqual(read("--fail-fast", "--no-fail-fast"), [
    "--fail-fast and --no-fail-fast contradict each other: give one",
  ]);
});

Deno.test("tailgate run files the run under the plan folder's commit, or --commit, in the history", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  await using repo = await gitOrigin();
  // The plan lives in a repository of its own; the run starts in this one.
  const work = await repo.clone("work");
  // A loose latency SLO sets the run's lateness limit at 200 ms: a run the whole suite's load holds
  // back is still sound, so the history takes it (a tool-limited run is refused); p50 is decided
  // on the run's 100 requests. The second run is checked against the first for errors only: a
  // busy machine may slow it for real, and latency is not what this test is about.
  const file = await planFile(
    work,
    target.url,
    "slo: [p50 < 2s]\nregression: { error_rate: 1% }\n",
  );
  const head = await gitIn(work, ["rev-parse", "HEAD"]);
  const baselines = join(repo.root, "baselines");
  const ciVariables = [
    "GITHUB_SHA",
    "CI_COMMIT_SHA",
    "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME",
    "CI_COMMIT_REF_NAME",
  ];
  const saved = ciVariables.map((name) => [name, Deno.env.get(name)] as const);
  ciVariables.forEach((name) => Deno.env.delete(name));
  try {
    for (const extra of [[], ["--commit", "ABCDEF1"]]) {
      const args = parseRunArgs([
        file,
        ...["--out", join(repo.root, "out"), "--baseline", baselines, "--update-baseline"],
        ...extra,
      ]);
      assert.ok(args.ok, args.ok ? "" : args.problems.map(problemText).join("\n"));
      const outcome = await runPlanCommand(args.value, () => {});
      assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
    }
  } finally {
    for (const [name, value] of saved) if (value !== undefined) Deno.env.set(name, value);
  }
  const history = await loadHistory(baselines, "cli-run");
  assert.ok(history.ok && history.value);
  assert.deepEqual(
    history.value.file.history.map((e) => [e.commit, e.branch]),
    [[head, "main"], ["abcdef1", "main"]],
  );
});

/** Whether `taskset` can pin a process here (util-linux). */
function hasTaskset(): boolean {
  try {
    return new Deno.Command("taskset", { args: ["-p", String(Deno.pid)], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "run --start measures the started service's wait for a CPU, beside a loop on its core",
  ignore: Deno.build.os !== "linux" || !hasTaskset(),
  async fn() {
    const port = freePort();
    await using dir = await tempDir();
    const file = await planFile(
      String(dir),
      `http://127.0.0.1:${port}`,
    ).then(async (path) => {
      const text = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, text.replace("duration: 500ms", "duration: 2s"));
      return path;
    });
    // The service and a busy loop share core 0; `timeout` bounds the loop, SIGTERM ends it.
    const loop = new Deno.Command("taskset", {
      args: ["-c", "0", "timeout", "30", "sh", "-c", "while :; do :; done"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const outcome = await runPlanCommand({
        planPath: file,
        outDir: join(String(dir), "out"),
        caCertFiles: [],
        start: {
          command: serveCommand(port).replace(/^exec /, "exec taskset -c 0 "),
          readyTimeoutMs: 20_000,
        },
      }, () => {});
      assert.equal(outcome.exitCode, 0, outcome.errors.join("\n"));
      const read = readRunResult(await Deno.readTextFile(join(String(dir), "out", "result.json")));
      assert.ok(read.ok);
      const c = read.value.health.contention;
      assert.ok(c, "contention measured");
      assert.equal(c.source, "service");
      assert.equal(c.service?.found, "started");
      assert.equal(c.service?.name, "deno");
      const measured = read.value.intervals.filter((i) => i.counts.scheduled > 0);
      assert.equal(measured.length, 2);
      for (const interval of measured) {
        assert.ok(interval.contention?.serviceWaitMs !== undefined, "each second's wait");
        assert.ok(interval.contention.serviceWaitMs >= 0);
      }
      // A loop on its core: the service waited for it (a context switch at the least).
      assert.ok(c.serviceWaitMs! > 0, `service wait ${c.serviceWaitMs} ms`);
      assert.match(outcome.output!, /^machine: the service \(deno, pids? [\d, ]+\) waited /m);
    } finally {
      loop.kill("SIGTERM");
      await loop.status;
    }
  },
});
