import assert from "node:assert/strict";
import { scheduleShortfall } from "../../../runner/gates/generator_allowance.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import { gateResult, pointsUs, scaledUs } from "../../_helpers/gate_fixtures.ts";

/** A result whose every send lag is `sendUs` and every dispatch lag `dispatchUs`. */
function lagging(sendUs: number, dispatchUs: number) {
  const result = gateResult([{
    ratePerSec: 1000,
    durationMs: 10_000,
    labels: [{ label: "GET /", response: scaledUs(10_000, 1) }],
  }]);
  result.health.sendLag = toEncodedHistogram(pointsUs([[sendUs, 1000]]));
  result.health.dispatchLag = toEncodedHistogram(pointsUs([[dispatchUs, 1000]]));
  return result;
}

Deno.test("scheduleShortfall() quotes the dispatch lag when it is the late one, the send lag beside it", () => {
  // The health line says send lag 16.02 ms; 35.23 ms is the dispatch lag, and says so.
  const why = scheduleShortfall(lagging(16_020, 35_230), 10_000)!;
  assert.match(
    why,
    /^the generator fell behind its schedule \(its dispatch lag p99 was 35\.2\d*ms, /,
  );
  assert.match(why, /, send lag 16\.0\d*ms, above 10ms\)/);
  assert.doesNotMatch(why, /send lag p99 was 35/);
});

Deno.test("scheduleShortfall() quotes the send lag when it is the late one", () => {
  const why = scheduleShortfall(lagging(42_000, 3_000), 10_000)!;
  assert.match(why, /\(its send lag p99 was 42\.\d*ms, above 10ms\)/);
  assert.doesNotMatch(why, /dispatch/);
  const late = lagging(0, 0);
  late.health.sendLag = toEncodedHistogram(pointsUs([]));
  late.health.dispatchLag = toEncodedHistogram(pointsUs([[20_000, 10]]));
  // No request found a free connection: no send lag to quote.
  assert.match(
    scheduleShortfall(late, 10_000)!,
    /\(its dispatch lag p99 was 20\.\d*ms, above 10ms\)/,
  );
});

Deno.test("scheduleShortfall() is undefined while both lags stay within the limit", () => {
  assert.equal(scheduleShortfall(lagging(9_000, 9_500), 10_000), undefined);
});
