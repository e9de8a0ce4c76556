import assert from "node:assert/strict";
import { HELLO_BODY, startTarget, TargetOptionsError } from "../../../runner/target/mod.ts";
import { sleep, timedGet } from "./_timed_fetch.ts";

/** Timer and loopback slack: a response is late by at most this much. */
const SLACK_MS = 100;

Deno.test("hello mode answers 200 hello at once, numbering requests in arrival order", async () => {
  await using target = await startTarget({ mode: "hello", port: 0 });
  assert.match(target.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  const first = await timedGet(target.url);
  const second = await timedGet(target.url);
  assert.deepEqual([first.status, first.body, first.delayMs], [200, HELLO_BODY, 0]);
  assert.deepEqual([first.index, second.index], [0, 1]);
  assert.ok(second.doneAtMs - second.sentAtMs < SLACK_MS);
});

Deno.test("fixed mode delays every response by delayMs", async () => {
  await using target = await startTarget({ mode: "fixed", port: 0, delayMs: 60 });
  for (let i = 0; i < 3; i++) {
    const r = await timedGet(target.url);
    assert.equal(r.delayMs, 60);
    assert.ok(r.doneAtMs - r.sentAtMs >= 59, `answered after ${r.doneAtMs - r.sentAtMs} ms`);
    assert.ok(r.doneAtMs - r.sentAtMs < 60 + SLACK_MS);
  }
});

Deno.test("stall mode freezes every response arriving in the stall window until it ends", async () => {
  await using target = await startTarget({ mode: "stall", port: 0, stallMs: 200, periodMs: 400 });
  const elapsed = (atMs: number) => atMs - target.startedAtMs;
  const before = await timedGet(target.url);
  assert.ok(elapsed(before.doneAtMs) < 200, "the first request should finish before the stall");
  assert.equal(before.delayMs, 0);

  await sleep(target.startedAtMs + 250 - performance.now()); // 50 ms into the stall [200, 400)
  const frozen = await Promise.all([timedGet(target.url), timedGet(target.url)]);
  for (const r of frozen) {
    assert.equal(r.status, 200);
    assert.ok(elapsed(r.doneAtMs) >= 398, `answered at ${elapsed(r.doneAtMs)} ms, before 400`);
    assert.ok(elapsed(r.doneAtMs) < 400 + SLACK_MS);
    assert.ok(r.delayMs > 0 && r.delayMs <= 150, `waited ${r.delayMs} ms`);
  }

  const after = await timedGet(target.url); // the next period's open phase [400, 600)
  assert.ok(elapsed(after.sentAtMs) >= 398);
  assert.equal(after.delayMs, 0);
});

Deno.test("bimodal mode makes exactly frac of the responses slow", async () => {
  await using target = await startTarget({ mode: "bimodal", port: 0, frac: 0.25, slowMs: 80 });
  const responses = [];
  for (let i = 0; i < 8; i++) responses.push(await timedGet(target.url));
  assert.deepEqual(responses.map((r) => r.delayMs), [0, 0, 0, 80, 0, 0, 0, 80]);
  for (const r of responses) {
    const latencyMs = r.doneAtMs - r.sentAtMs;
    assert.ok(r.delayMs === 80 ? latencyMs >= 79 : latencyMs < 79, `${latencyMs} ms`);
  }
});

Deno.test("trend mode adds growthMsPerSec for every second since the start", async () => {
  await using target = await startTarget({ mode: "trend", port: 0, growthMsPerSec: 500 });
  for (const waitMs of [0, 150]) {
    await sleep(waitMs);
    const r = await timedGet(target.url);
    // delay = 0.5 × arrival, and the server saw the request between send and answer.
    const arrivedAtMs = r.delayMs * 2;
    assert.ok(arrivedAtMs >= r.sentAtMs - target.startedAtMs, `arrived at ${arrivedAtMs} ms`);
    assert.ok(arrivedAtMs <= r.doneAtMs - target.startedAtMs - r.delayMs + 1);
    assert.ok(r.doneAtMs - r.sentAtMs >= r.delayMs - 1);
  }
});

Deno.test("first-n mode answers the first n fast and every later one slow", async () => {
  await using target = await startTarget({ mode: "first-n", port: 0, firstN: 2, slowMs: 80 });
  const responses = [];
  for (let i = 0; i < 4; i++) responses.push(await timedGet(target.url));
  assert.deepEqual(responses.map((r) => r.delayMs), [0, 0, 80, 80]);
  assert.ok(responses[3].doneAtMs - responses[3].sentAtMs >= 79);
});

Deno.test("faults mode returns 500 with the fault header to a fetch client", async () => {
  await using target = await startTarget({
    mode: "faults",
    port: 0,
    faultFrac: 1,
    faultKinds: ["500"],
  });
  const response = await fetch(target.url);
  assert.equal(response.status, 500);
  assert.equal(response.headers.get("x-tailgate-fault"), "500");
  await response.body?.cancel();
});

for (const kind of ["reset", "garbage", "close"] as const) {
  Deno.test(`faults mode ${kind} fails the request of a fetch client`, async () => {
    await using target = await startTarget({
      mode: "faults",
      port: 0,
      faultFrac: 1,
      faultKinds: [kind],
    });
    await assert.rejects(() => fetch(target.url), TypeError);
  });
}

Deno.test("faults mode answers 200 outside the fault fraction on a kept-alive connection", async () => {
  await using target = await startTarget({
    mode: "faults",
    port: 0,
    faultFrac: 0.5,
    faultKinds: ["500"],
    delayMs: 5,
  });
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    const r = await timedGet(target.url);
    statuses.push([r.index, r.status, r.delayMs]);
  }
  assert.deepEqual(statuses, [[0, 200, 5], [1, 500, 5], [2, 200, 5], [3, 500, 5]]);
});

for (const mode of ["fixed", "faults"] as const) {
  Deno.test(`shutdown answers a waiting ${mode} request 503 at once`, async () => {
    const target = await startTarget({ mode, port: 0, delayMs: 10_000, faultFrac: 0 });
    const pending = timedGet(target.url);
    await sleep(50);
    await target.shutdown();
    const r = await pending;
    assert.equal(r.status, 503);
    assert.ok(r.doneAtMs - r.sentAtMs < 1_000);
    await target.finished;
  });
}

Deno.test("startTarget refuses a non-loopback address without listenAny", async () => {
  await assert.rejects(
    () => startTarget({ mode: "hello", hostname: "0.0.0.0", port: 0 }),
    (error: unknown) => error instanceof TargetOptionsError && /--listen-any/.test(error.message),
  );
});

for (const mode of ["hello", "faults"] as const) {
  Deno.test(`startTarget in ${mode} mode names a port already in use`, async () => {
    await using first = await startTarget({ mode, port: 0 });
    await assert.rejects(
      () => startTarget({ mode, port: first.port }),
      (error: unknown) =>
        error instanceof TargetOptionsError && /already in use/.test(error.message),
    );
  });
}

Deno.test("startTarget on ::1 writes the address in brackets in its url", async () => {
  await using target = await startTarget({ mode: "hello", hostname: "::1", port: 0 });
  assert.equal(target.url, `http://[::1]:${target.port}/`);
  const r = await timedGet(target.url);
  assert.equal(r.status, 200);
});
