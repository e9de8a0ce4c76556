import assert from "node:assert/strict";
import {
  type AtomicsWaker,
  createAtomicsWaker,
} from "../../../../runner/engine/timing/atomics_waker.ts";

/** Runs `body` with a fresh waker and always closes it. */
async function withWaker(
  body: (waker: AtomicsWaker) => Promise<void>,
  options?: Parameters<typeof createAtomicsWaker>[0],
): Promise<void> {
  const waker = await createAtomicsWaker(options);
  try {
    await body(waker);
  } finally {
    waker.close();
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("sleeps end at their deadline: never early, p50 lateness under 1 ms", async () => {
  await withWaker(async (waker) => {
    const latenessUs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const deadlineMs = performance.now() + 0.5 + (i % 7) * 0.25; // 0.5 .. 2 ms
      await waker.sleepUntil(deadlineMs);
      latenessUs.push((performance.now() - deadlineMs) * 1000);
    }
    latenessUs.sort((a, b) => a - b);
    assert.ok(latenessUs[0] > -50, `woke ${-latenessUs[0]} us early`);
    assert.ok(latenessUs[100] < 1000, `p50 lateness ${latenessUs[100]} us`);
    const stats = waker.stats();
    // A deadline can pass before it is armed if this thread is preempted: then it is "immediate".
    assert.equal(stats.wakes + stats.immediate, 200);
    assert.ok(stats.wakes >= 150, `only ${stats.wakes} sleeps were woken by the worker`);
    assert.equal(stats.workerWakes, stats.wakes);
    assert.ok(stats.lateness.p50Us < 1000 && stats.lateness.maxUs <= latenessUs[199] + 1);
  });
});

Deno.test("the worker's clock agrees with the engine thread's to well under a send lag", async () => {
  // Measured 0.0–0.4 us on a quiet machine; the handshake's own round trip bounds the reading,
  // and a loaded 2-core machine stretches it, so the check allows 100 us (a dropped timeOrigin
  // shift would be off by milliseconds).
  await withWaker((waker) => {
    assert.ok(Math.abs(waker.clockSkewUs) < 100, `clock skew ${waker.clockSkewUs} us`);
    return Promise.resolve();
  });
});

Deno.test("timer slack is set through FFI by default and left alone when 0", async () => {
  await withWaker((waker) => Promise.resolve(assert.equal(waker.timerSlackSet, true)));
  await withWaker(
    (waker) => Promise.resolve(assert.equal(waker.timerSlackSet, false)),
    { timerSlackNs: 0 },
  );
});

Deno.test("interrupt ends a pending sleep at once and the worker never fires it", async () => {
  await withWaker(async (waker) => {
    const startMs = performance.now();
    const slept = waker.sleepUntil(startMs + 30);
    waker.interrupt();
    await slept;
    assert.ok(performance.now() - startMs < 10, "interrupted sleep resolved late");
    await delay(60); // well past the interrupted deadline
    const stats = waker.stats();
    assert.equal(stats.interrupts, 1);
    assert.equal(stats.workerWakes, 0, "the worker fired a disarmed sleep");
  });
});

Deno.test("a deadline already past resolves from a task, letting timers and I/O run", async () => {
  await withWaker(async (waker) => {
    const startMs = performance.now();
    await waker.sleepUntil(startMs - 1);
    assert.ok(performance.now() - startMs < 20, "past deadline resolved late");
    let timerFired = false;
    setTimeout(() => timerFired = true, 0);
    let sleeps = 1;
    for (; sleeps < 50_000 && !timerFired; sleeps++) {
      await waker.sleepUntil(performance.now() - 1);
    }
    assert.ok(timerFired, "a behind-schedule loop starved the timers"); // microtasks would
    assert.equal(waker.stats().immediate, sleeps);
    assert.equal(waker.stats().workerWakes, 0);
  });
});

Deno.test("re-arming a pending sleep replaces its deadline, earlier or later", async () => {
  await withWaker(async (waker) => {
    let startMs = performance.now();
    const first = waker.sleepUntil(startMs + 5_000);
    const second = waker.sleepUntil(startMs + 3);
    assert.equal(first, second, "a re-arm returns the pending sleep");
    await second;
    let elapsedMs = performance.now() - startMs;
    assert.ok(elapsedMs >= 2.95 && elapsedMs < 1_000, `earlier deadline: woke after ${elapsedMs}`);

    startMs = performance.now();
    const sleep = waker.sleepUntil(startMs + 2);
    waker.sleepUntil(startMs + 30);
    await sleep;
    elapsedMs = performance.now() - startMs;
    assert.ok(elapsedMs >= 29.95, `later deadline: woke after ${elapsedMs} ms`);
    assert.equal(waker.stats().wakes, 2);
  });
});

Deno.test("close resolves a pending sleep, and later sleeps resolve at once", async () => {
  const waker = await createAtomicsWaker();
  const startMs = performance.now();
  const slept = waker.sleepUntil(startMs + 60_000);
  waker.close();
  await slept;
  await waker.sleepUntil(performance.now() + 60_000);
  assert.ok(performance.now() - startMs < 100);
  waker.close(); // idempotent
});

Deno.test("close stops the worker thread and leaves nothing keeping a process alive", async () => {
  const moduleUrl =
    new URL("../../../../runner/engine/timing/atomics_waker.ts", import.meta.url).href;
  const script = `
    import { createAtomicsWaker } from ${JSON.stringify(moduleUrl)};
    // A thread may end between listing and reading its name: a vanished thread is no worker.
    const comm = (t) => { try { return Deno.readTextFileSync("/proc/self/task/" + t.name + "/comm"); } catch { return ""; } };
    const workers = () => [...Deno.readDirSync("/proc/self/task")].filter((t) =>
      comm(t).startsWith("worker-")).length;
    const waker = await createAtomicsWaker();
    await waker.sleepUntil(performance.now() + 1);
    const during = workers();
    const slept = waker.sleepUntil(performance.now() + 60_000);
    waker.close();
    await slept;
    let after = workers();
    for (let i = 0; i < 100 && after > 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      after = workers();
    }
    console.log(JSON.stringify({ during, after }));`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(15_000),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `child failed or hung: ${stderr}`);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(output.stdout)), { during: 1, after: 0 });
});

Deno.test("options that are negative or not finite are refused before a worker starts", async () => {
  await assert.rejects(createAtomicsWaker({ minGapUs: -1 }), RangeError);
  await assert.rejects(createAtomicsWaker({ timerSlackNs: NaN }), RangeError);
  await assert.rejects(createAtomicsWaker({ minGapUs: Infinity }), RangeError);
});
