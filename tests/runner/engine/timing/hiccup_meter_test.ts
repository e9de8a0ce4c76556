import assert from "node:assert/strict";
import { createHistogram, toEncodedHistogram } from "../../../../runner/hdr/mod.ts";
import { hiccupMeterOn, startHiccupProbe } from "../../../../runner/engine/timing/mod.ts";
import {
  HICCUP_SLOT,
  recordOversleep,
  runHiccupProbe,
} from "../../../../runner/engine/timing/hiccup_worker.ts";
import {
  bucketGeometry,
  countsIndexOf,
  HISTOGRAM_CONFIG,
} from "../../../../runner/hdr/histogram_config.ts";

const countsIndexOfUs = (us: number) => countsIndexOf(bucketGeometry(HISTOGRAM_CONFIG), us);

Deno.test("the probe's shared counts read back as the histogram of what it overslept", async () => {
  const sab = new SharedArrayBuffer(HICCUP_SLOT.bytes);
  const counts = new Float64Array(sab, HICCUP_SLOT.countsOffset, HICCUP_SLOT.countsLength);
  const direct = createHistogram();
  // Oversleeps across the layout's buckets (exact below 2048 us, shared above), and a long one
  // that jHiccup's correction counts once per further period: 3300, 2300, 1300 and 300 us.
  for (const us of [-40, 0, 1, 999, 2047, 2048, 2049, 4095, 70_001, 3_600_000_000]) {
    recordOversleep(counts, Math.min(us, 1000));
    direct.recordValue(Math.max(0, Math.min(us, 1000)));
  }
  recordOversleep(counts, 3300);
  for (const us of [3300, 2300, 1300, 300]) direct.recordValue(us);
  for (const us of [2048, 2049, 70_001, 1_234_567]) {
    counts[countsIndexOfUs(us)]++;
    direct.recordValue(us);
  }
  new Int32Array(sab)[HICCUP_SLOT.stop] = 1;
  runHiccupProbe(sab); // stops at once, and marks its counts final
  assert.deepEqual(await hiccupMeterOn(sab).stop(), toEncodedHistogram(direct));
});

Deno.test("a probe that ran records its oversleeps from recordFrom on, and is read elsewhere", async () => {
  const probe = startHiccupProbe();
  await probe.ready;
  const meter = hiccupMeterOn(probe.sab);
  meter.recordFrom(performance.timeOrigin + performance.now());
  await new Promise((r) => setTimeout(r, 60));
  const hiccups = await meter.stop();
  probe.close();
  // About one sample per millisecond slept (fewer when the machine is busy, never none).
  assert.ok(hiccups.count >= 5 && hiccups.count <= 200, `count ${hiccups.count}`);
  assert.ok(hiccups.maxUs >= hiccups.minUs);
});

Deno.test("a meter whose probe never ran returns an empty histogram after its wait", async () => {
  const sab = new SharedArrayBuffer(HICCUP_SLOT.bytes);
  const startMs = performance.now();
  const hiccups = await hiccupMeterOn(sab).stop();
  assert.equal(hiccups.count, 0);
  assert.ok(performance.now() - startMs >= 900, "waited for the probe to finish");
});
