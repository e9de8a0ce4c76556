import assert from "node:assert/strict";
import { sentRateDips, sentRateNote } from "../../../reporters/figures/sent_rate_note.ts";
import { toEncodedHistogram } from "../../../runner/hdr/encoded_histogram.ts";
import type { RunResult } from "../../../runner/model/run_result.ts";
import { pointsUs } from "../../_helpers/gate_fixtures.ts";
import { reportResult } from "../../_helpers/report_fixtures.ts";

/** The report fixture with every interval sending what it planned and nothing queued. */
function onSchedule(): RunResult {
  const result = reportResult();
  for (const i of result.intervals) i.sentPerSec = i.intendedPerSec;
  return result;
}

Deno.test("sentRateNote() says nothing when every second sent what it planned and nothing queued", () => {
  const result = onSchedule();
  assert.equal(result.health.queueWait.count, 0);
  assert.deepEqual(sentRateDips(result.intervals), []);
  assert.equal(sentRateNote(result), undefined);
});

Deno.test("sentRateDips() counts a second that sent 10% and 2 requests less than planned", () => {
  const result = onSchedule();
  const [a, b, c] = result.intervals.filter((i) => i.intendedPerSec >= 30);
  a.sentPerSec = a.intendedPerSec - 3; // 10% of 30 and 3 requests: a dip
  b.sentPerSec = b.intendedPerSec - 1; // one late request: no dip
  c.sentPerSec = c.intendedPerSec * 1.2; // catching up: no dip
  assert.deepEqual(sentRateDips(result.intervals), [a]);
});

Deno.test("sentRateNote(): requests that waited for a busy connection queued, none skipped", () => {
  const result = onSchedule();
  const dip = result.intervals.find((i) => i.intendedPerSec >= 30)!;
  dip.sentPerSec = dip.intendedPerSec / 2;
  result.health.queueWait = toEncodedHistogram(pointsUs([[2_000, 30], [40_000, 10]]));
  result.health.connections = { opened: 50, peak: 50 };
  const note = sentRateNote(result)!;
  assert.match(
    note,
    /^“Sent per second” dips below the intended rate in 1 second \(the first \d+ s into the run\)/,
  );
  assert.match(note, /all 50 connections tailgate had open \(the plan's max_connections is 50\)/);
  assert.match(note, /40 requests waited in tailgate's queue \(up to 40\.\d*ms\)/);
  assert.match(note, /None was skipped/);
  // Waits without a dip are still said, without the dip.
  dip.sentPerSec = dip.intendedPerSec;
  assert.match(sentRateNote(result)!, /^Requests waited for a connection: all 50 connections/);
});

Deno.test("sentRateNote(): a dip without a queue is the generator's own lateness", () => {
  const result = onSchedule();
  const dips = result.intervals.filter((i) => i.intendedPerSec >= 30).slice(0, 2);
  for (const i of dips) i.sentPerSec = 0;
  const note = sentRateNote(result)!;
  assert.match(note, /in 2 seconds .*: tailgate itself fell behind its schedule/);
  assert.match(note, /None was skipped/);
});

Deno.test("sentRateNote(): over HTTP/2 requests waited for a free stream, every stream busy", () => {
  const result = onSchedule();
  result.health.queueWait = toEncodedHistogram(pointsUs([[2_000, 30]]));
  result.health.connections = { opened: 10, peak: 10 };
  result.run.protocol = "h2c";
  result.run.maxStreams = 8;
  assert.match(
    sentRateNote(result)!,
    /^Requests waited for a free stream: every stream of the 10 connections tailgate had open \(the plan's max_connections is 50\), up to 8 streams per connection, was busy with unanswered requests, so 30 requests waited in tailgate's queue \(up to [\d.]+ms\) and were sent as soon as a stream freed up\./,
  );
});
