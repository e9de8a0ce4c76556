/**
 * Time to first byte and `rate_limited`, end to end on every I/O path: HTTP/1.1 on Deno's sockets
 * and on the native path (a raw TCP server in a process of its own), HTTP/2 (h2c) on both. A
 * server that sends its head at once and its body 200 ms later must read as a first byte of a few
 * milliseconds and a response of 200 ms or more; a 429, or a 503 with `Retry-After`, is
 * `rate_limited` with its `Retry-After` counted, a 503 without one `unexpected_status`.
 */
import assert from "node:assert/strict";
import { type EngineRun, runEngine } from "../../../runner/run/run_engine.ts";
import { runWorkers } from "../../../runner/run/run_workers.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import type { LabelResult } from "../../../runner/model/run_result.ts";
import { decodeHistogram } from "../../../runner/hdr/mod.ts";
import { parseText } from "../../_helpers/plan_fixtures.ts";
import { slowBodyServer } from "../../_helpers/slow_body_server.ts";
import { behaviourServer } from "../../_helpers/h2_behaviour_server.ts";

const BODY_DELAY_MS = 200;
const IO_PATHS: readonly ("deno" | "native")[] = openLibcNet() ? ["deno", "native"] : ["deno"];

/** 10 requests of `GET /` at 10/s over 4 connections (none waits for one). */
function slowPlan(url: string, http2: boolean) {
  const { plan, issues } = parseText(`name: ttfb
target: ${url}
requests: [{ name: GET /, path: / }]
load:
  connections: 4
  stages: [{ rate: 10/s, duration: 1s }]
`);
  assert.ok(plan, JSON.stringify(issues));
  if (http2) plan.load.http = "2";
  return plan;
}

/** One request of each path at 40/s for 1 s: 8 each. */
function limitedPlan(url: string, http2: boolean) {
  const paths = ["/ok", "/limited", "/busy", "/down", "/bare-429"];
  const { plan, issues } = parseText(`name: limited
target: ${url}
requests:
${paths.map((p) => `  - { name: "${p}", path: ${p} }`).join("\n")}
load:
  connections: 4
  stages: [{ rate: 40/s, duration: 1s }]
`);
  assert.ok(plan, JSON.stringify(issues));
  if (http2) plan.load.http = "2";
  return plan;
}

/** The first byte within tens of ms, the response after the body's 200 ms. */
function assertSlowBody(run: EngineRun): void {
  const stage = run.recorded.stages[0];
  const [label] = stage.labels;
  assert.equal(stage.counts.ok, 10, JSON.stringify(stage.counts));
  for (const group of [stage, label]) {
    const ttfb = group.ttfb!;
    assert.equal(ttfb.count, 10, "a first byte for each answered request");
    assert.ok(ttfb.maxUs < 100_000, `ttfb max ${ttfb.maxUs} us: the head came at once`);
    assert.ok(group.response.minUs >= BODY_DELAY_MS * 1000 * 0.95, `${group.response.minUs} us`);
    assert.ok(
      group.response.percentilesUs["50"] < 400_000,
      `${group.response.percentilesUs["50"]}`,
    );
  }
  // Every interval with requests carries them too, per label.
  const intervalTtfb = run.recorded.intervals.reduce(
    (n, i) => n + (i.labels[0].ttfb?.count ?? 0),
    0,
  );
  assert.equal(intervalTtfb, 10);
}

/** Each path's answers: 429 and 503 with Retry-After are rate_limited, with their seconds. */
function assertRateLimited(run: EngineRun): void {
  const labels = new Map<string, LabelResult>(
    run.recorded.stages[0].labels.map((l) => [l.label, l]),
  );
  const counts = (path: string) => labels.get(path)!.counts;
  const total = run.recorded.stages[0].counts;
  assert.equal(total.completed, 40, JSON.stringify(total));
  assert.deepEqual(counts("/ok").errors, {});
  const limited = counts("/limited");
  assert.deepEqual(limited.errors, { rate_limited: limited.completed });
  assert.deepEqual(limited.retryAfterS, { "7": limited.completed });
  const busy = counts("/busy");
  assert.deepEqual(busy.errors, { rate_limited: busy.completed });
  // An HTTP date 30 s ahead, to the second: a delay of 29 or 30 s.
  const seconds = Object.keys(busy.retryAfterS ?? {});
  assert.ok(seconds.every((s) => s === "29" || s === "30"), seconds.join());
  assert.equal(Object.values(busy.retryAfterS!).reduce((a, b) => a + b, 0), busy.completed);
  const down = counts("/down");
  assert.deepEqual(down.errors, { unexpected_status: down.completed });
  assert.equal(down.retryAfterS, undefined);
  const bare = counts("/bare-429");
  assert.deepEqual(bare.errors, { rate_limited: bare.completed });
  assert.equal(bare.retryAfterS, undefined);
  // Rate-limited answers are not latencies, and the open model does not slow for them.
  assert.equal(labels.get("/limited")!.ttfb, undefined);
  assert.equal(total.scheduled, 40);
  assert.equal(total.errors.rate_limited, limited.completed + busy.completed + bare.completed);
}

for (const io of IO_PATHS) {
  Deno.test(`HTTP/1.1: the first byte is the head's, the response waits for the body (${io})`, async () => {
    await using server = await slowBodyServer(BODY_DELAY_MS);
    const run = await runEngine({ plan: slowPlan(server.url, false), io });
    assert.equal(run.io, io);
    assertSlowBody(run);
  });

  Deno.test(`HTTP/1.1: a 429, or a 503 with Retry-After, is rate_limited (${io})`, async () => {
    await using server = await slowBodyServer(0);
    const run = await runEngine({ plan: limitedPlan(server.url, false), io });
    assertRateLimited(run);
  });
}

/** An h2c run: the native path in an engine worker, Deno's sockets on this thread. */
async function h2Run(plan: ReturnType<typeof slowPlan>, io: "deno" | "native") {
  const run = io === "native" ? await runWorkers({ plan, io }) : await runEngine({ plan, io });
  assert.equal(run.io, io);
  return run;
}

for (const io of IO_PATHS) {
  Deno.test(`HTTP/2: the first byte is the stream's HEADERS, the response waits for its DATA (${io})`, async () => {
    await using server = await behaviourServer((s) =>
      s.answerSlowBody(200, {}, "body", BODY_DELAY_MS)
    );
    assertSlowBody(await h2Run(slowPlan(server.url, true), io));
  });

  Deno.test(`HTTP/2: each stream's first byte is its own HEADERS, not its connection's (${io})`, async () => {
    // One connection carries every stream; odd streams' HEADERS come 150 ms late.
    await using server = await behaviourServer((s) => {
      if (s.n % 2 === 0) return s.answerSlowBody(200, {}, "body", 50);
      setTimeout(() => s.answerSlowBody(200, {}, "body", 50), 150);
    });
    const plan = slowPlan(server.url, true);
    plan.load.connections = 1;
    plan.load.maxConnections = 1;
    const run = await h2Run(plan, io);
    const stage = run.recorded.stages[0];
    assert.equal(stage.counts.ok, 10);
    const ttfbMs = [...decodeHistogram(stage.ttfb!.hdr).recordedValues()]
      .flatMap((v) => Array<number>(v.count).fill(v.valueUs / 1000));
    assert.equal(ttfbMs.filter((ms) => ms >= 140).length, 5, ttfbMs.join());
    assert.equal(ttfbMs.filter((ms) => ms < 100).length, 5, ttfbMs.join());
    assert.ok(stage.response.minUs >= 45_000, `${stage.response.minUs}`);
  });

  Deno.test(`HTTP/2: a 429, or a 503 with Retry-After, is rate_limited (${io})`, async () => {
    await using server = await behaviourServer((s) => {
      const path = s.headers[":path"];
      if (path === "/limited") return s.answerSlowBody(429, { "retry-after": "7" }, "no", 0);
      if (path === "/bare-429") return s.answerSlowBody(429, {}, "no", 0);
      if (path === "/down") return s.answerSlowBody(503, {}, "down", 0);
      if (path === "/busy") {
        const at = new Date(Date.now() + 30_000).toUTCString();
        return s.answerSlowBody(503, { "retry-after": at }, "busy", 0);
      }
      s.answer(200, "ok");
    });
    assertRateLimited(await h2Run(limitedPlan(server.url, true), io));
  });
}
