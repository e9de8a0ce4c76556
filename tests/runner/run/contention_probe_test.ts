import assert from "node:assert/strict";
import { startContentionProbe } from "../../../runner/run/contention_probe.ts";
import { nextSampleAtMs } from "../../../runner/run/contention_worker.ts";

const LINUX = Deno.build.os === "linux";

/** A server in a child process on a loopback port: its PID and port; killed when disposed. */
async function childServer() {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      'const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });' +
      "console.log(l.addr.port); for await (const c of l) c.close();",
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return {
    pid: child.pid,
    port: Number(text.trim()),
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

Deno.test("nextSampleAtMs() keeps to the grid of time zero once it is known", () => {
  assert.equal(nextSampleAtMs(1_230, 1_000, undefined, 500), 1_500); // not yet aligned
  assert.equal(nextSampleAtMs(2_000, 1_990, 2_000, 500), 2_500); // on an edge: the next one
  assert.equal(nextSampleAtMs(2_499, 2_000, 2_000, 500), 2_500);
  assert.equal(nextSampleAtMs(3_100, 2_000, 2_000, 500), 3_500); // late: the next edge, not a catch-up
  assert.equal(nextSampleAtMs(1_000, 900, 2_000, 500), 1_500); // before time zero, on its grid
});

Deno.test({
  name: "the probe samples from its start to its stop and finds a loopback server's process",
  ignore: !LINUX,
  async fn() {
    await using server = await childServer();
    const probe = startContentionProbe({ url: `http://127.0.0.1:${server.port}/` });
    assert.ok(probe);
    try {
      await probe.ready;
      const startAtEpochMs = performance.timeOrigin + performance.now() + 10;
      probe.alignTo(startAtEpochMs);
      // Two 500 ms edges after time zero: a busy machine that delays one still leaves 3 samples.
      await new Promise((r) => setTimeout(r, 1_200));
      const stoppedAtEpochMs = performance.timeOrigin + performance.now();
      const record = await probe.stop();
      assert.ok(record);
      assert.equal(record.startAtEpochMs, startAtEpochMs);
      assert.equal(record.local, true);
      assert.deepEqual(record.service, {
        found: "listening_socket",
        pids: [server.pid],
        name: "deno",
      });
      assert.ok(record.clockTicksPerSec > 0);
      assert.ok(record.samples.length >= 3, `${record.samples.length} samples`);
      const times = record.samples.map((s) => s.atEpochMs);
      assert.deepEqual(times, [...times].sort((a, b) => a - b), "in time order");
      assert.ok(times[0] < startAtEpochMs, "the first sample before time zero");
      assert.ok(times.at(-1)! >= stoppedAtEpochMs, "the last one taken on the stop");
      for (const s of record.samples) {
        assert.ok(s.serviceWaitNs !== undefined && s.serviceWaitNs >= 0);
      }
    } finally {
      probe.close();
    }
  },
});

Deno.test({
  name: "the probe of a target on another machine finds no service and says it is not local",
  ignore: !LINUX,
  async fn() {
    const probe = startContentionProbe({ url: "http://192.0.2.1:8080/" });
    assert.ok(probe);
    try {
      await probe.ready;
      const record = await probe.stop();
      assert.ok(record);
      assert.equal(record.local, false);
      assert.equal(record.service, undefined);
      assert.equal(record.startAtEpochMs, undefined, "never aligned");
      assert.ok(record.samples.every((s) => s.serviceWaitNs === undefined));
    } finally {
      probe.close();
    }
  },
});

Deno.test({
  name: "the probe of a target this process serves finds no service apart from it",
  ignore: !LINUX,
  async fn() {
    // The built-in target in tailgate's own process: its wait is the generator's own.
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const probe = startContentionProbe({ url: `http://127.0.0.1:${listener.addr.port}/` });
    assert.ok(probe);
    try {
      await probe.ready;
      const record = await probe.stop();
      assert.ok(record);
      assert.equal(record.service, undefined);
      assert.equal(record.local, false, "no pressure stands for it either");
    } finally {
      probe.close();
    }
  },
});
