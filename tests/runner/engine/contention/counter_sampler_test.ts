import assert from "node:assert/strict";
import { CounterSampler } from "../../../../runner/engine/contention/mod.ts";

/** A procfs stand-in the test writes the counters of. */
class FakeProc {
  constructor(readonly root: string) {}
  static async make(): Promise<FakeProc> {
    const proc = new FakeProc(await Deno.makeTempDir());
    await Deno.mkdir(`${proc.root}/pressure`);
    return proc;
  }
  pressure(totalUs: number) {
    Deno.writeTextFileSync(
      `${this.root}/pressure/cpu`,
      `some avg10=0.00 avg60=0.00 avg300=0.00 total=${totalUs}\n` +
        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
    );
  }
  steal(ticks: number[]) {
    const lines = ticks.map((t, i) => `cpu${i} 1 0 1 100 0 0 0 ${t} 0 0\n`);
    Deno.writeTextFileSync(`${this.root}/stat`, `cpu  2 0 2 200 0 0 0 0 0 0\n${lines.join("")}`);
  }
  thread(pid: number, tid: number, waitNs: number) {
    Deno.mkdirSync(`${this.root}/${pid}/task/${tid}`, { recursive: true });
    Deno.writeTextFileSync(`${this.root}/${pid}/task/${tid}/schedstat`, `1000 ${waitNs} 5\n`);
  }
  end(pid: number, tid: number) {
    Deno.removeSync(`${this.root}/${pid}/task/${tid}`, { recursive: true });
  }
  [Symbol.dispose]() {
    Deno.removeSync(this.root, { recursive: true });
  }
}

Deno.test("a sample holds the pressure, each CPU's steal and its time", async () => {
  using proc = await FakeProc.make();
  proc.pressure(5000);
  proc.steal([3, 7]);
  let now = 1000;
  const sampler = new CounterSampler({ procRoot: proc.root, nowEpochMs: () => now });
  assert.deepEqual(sampler.sample(), { atEpochMs: 1000, pressureUs: 5000, stealTicks: [3, 7] });
  proc.pressure(9000);
  proc.steal([4, 7]);
  now = 1500;
  assert.deepEqual(sampler.sample(), { atEpochMs: 1500, pressureUs: 9000, stealTicks: [4, 7] });
  sampler.close();
});

Deno.test("a counter whose file is missing is absent, and the others are read", async () => {
  using proc = await FakeProc.make();
  proc.steal([1]);
  const sampler = new CounterSampler({ procRoot: proc.root, nowEpochMs: () => 0 });
  assert.deepEqual(sampler.sample(), { atEpochMs: 0, stealTicks: [1] });
  sampler.close();
});

Deno.test("the service's wait is its threads' growth since each was first seen", async () => {
  using proc = await FakeProc.make();
  proc.thread(10, 10, 1_000_000);
  proc.thread(10, 11, 5_000_000);
  const sampler = new CounterSampler({
    procRoot: proc.root,
    pids: () => [10, 99], // 99 has gone: dropped without a word
    refreshEvery: 2,
    nowEpochMs: () => 0,
  });
  assert.equal(sampler.sample().serviceWaitNs, 0); // listed: the baseline
  assert.equal(sampler.threads, 2);
  proc.thread(10, 10, 3_000_000);
  proc.thread(10, 12, 9_000_000); // a new thread: not seen until the next listing
  assert.equal(sampler.sample().serviceWaitNs, 2_000_000);
  proc.thread(10, 11, 6_000_000);
  proc.end(10, 10); // what it waited stays counted
  assert.equal(sampler.sample().serviceWaitNs, 2_000_000 + 1_000_000); // listed again
  assert.equal(sampler.threads, 2);
  proc.thread(10, 12, 9_500_000);
  assert.equal(sampler.sample().serviceWaitNs, 3_500_000);
  sampler.close();
});

Deno.test("without the service's processes there is no service wait", async () => {
  using proc = await FakeProc.make();
  proc.pressure(1);
  const none = new CounterSampler({ procRoot: proc.root, nowEpochMs: () => 0 });
  assert.equal("serviceWaitNs" in none.sample(), false);
  none.close();
  const gone = new CounterSampler({ procRoot: proc.root, pids: () => [42], nowEpochMs: () => 0 });
  assert.equal("serviceWaitNs" in gone.sample(), false, "no thread of it was ever read");
  gone.close();
});

Deno.test({
  name: "on Linux the sampler reads this process's own threads",
  ignore: Deno.build.os !== "linux",
  fn() {
    const sampler = new CounterSampler({ pids: () => [Deno.pid] });
    const first = sampler.sample();
    let spin = 0;
    for (let i = 0; i < 1e6; i++) spin += i;
    const second = sampler.sample();
    sampler.close();
    assert.ok(spin > 0);
    assert.ok(sampler.threads === 0, "closed");
    assert.ok(second.atEpochMs >= first.atEpochMs);
    assert.equal(typeof second.serviceWaitNs, "number");
    assert.ok(second.serviceWaitNs! >= first.serviceWaitNs!);
    assert.ok((second.stealTicks?.length ?? 0) > 0, "/proc/stat has a line per CPU");
  },
});
