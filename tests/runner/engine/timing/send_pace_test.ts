import assert from "node:assert/strict";
import {
  PACE_WINDOW_MS,
  PACE_WINDOW_SENDS,
  SendPace,
} from "../../../../runner/engine/timing/send_pace.ts";

Deno.test("a send pace is 0 until a window of sends was counted", () => {
  const pace = new SendPace();
  pace.sent(0);
  assert.equal(pace.intervalMs, 0);
  for (let k = 1; k < PACE_WINDOW_MS; k++) pace.sent(k);
  assert.equal(pace.intervalMs, 0, "sends over 9 ms: no full window yet");
  pace.sent(PACE_WINDOW_MS);
  assert.equal(pace.intervalMs, 1);
});

Deno.test("sends taken in batches at coarse wakes count at their true rate", () => {
  // 10k/s taken at wakes 0.25 ms apart, 2 or 3 a wake (a batching loop), first steps and later
  // steps mixed: only the count and the clock matter, never the order of their due times.
  const pace = new SendPace();
  let due = 0;
  for (let wakeMs = 0; wakeMs <= 200; wakeMs += 0.25) {
    let n = 0;
    while (due <= wakeMs) {
      due += 0.1;
      n++;
    }
    if (n > 0) pace.sent(wakeMs, n);
  }
  assert.ok(Math.abs(pace.intervalMs - 0.1) < 0.005, `${pace.intervalMs}`);
});

Deno.test("a send pace follows a change of rate within a window or two", () => {
  const pace = new SendPace();
  for (let k = 0; k <= 1000; k++) pace.sent(k * 0.1); // 10k/s for 100 ms
  assert.ok(Math.abs(pace.intervalMs - 0.1) < 1e-6);
  for (let k = 1; k <= 200; k++) pace.sent(100 + k * 0.5); // then 2k/s for 100 ms
  assert.ok(Math.abs(pace.intervalMs - 0.5) < 1e-6, `${pace.intervalMs}`);
  for (let k = 1; k < PACE_WINDOW_SENDS; k++) pace.sent(200 + k * 1_000); // then 1/s
  assert.ok(Math.abs(pace.intervalMs - 0.5) < 1e-6, "fewer sends than a window holds: kept");
  pace.sent(200 + PACE_WINDOW_SENDS * 1_000);
  assert.ok(Math.abs(pace.intervalMs - 1_000) < 1e-6, `${pace.intervalMs}`);
});

Deno.test("one short gap between slow random arrivals does not read as a high rate", () => {
  // 50/s, arrivals 20 ms apart but for two 0.05 ms apart: a window holds at least 8 sends.
  const pace = new SendPace();
  const times = [0, 20, 20.05, 40, 60, 80, 100, 120, 140, 160, 160.05, 180, 200];
  const seen: number[] = [];
  for (const t of times) {
    pace.sent(t);
    seen.push(pace.intervalMs);
  }
  assert.ok(seen.every((ms) => ms === 0 || ms > 10), JSON.stringify(seen));
  assert.ok(seen.at(-1)! > 10);
});
