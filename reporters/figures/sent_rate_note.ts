/**
 * Why the "sent per second" line of the throughput chart dips below the intended rate. tailgate
 * never skips a scheduled request: one that finds every connection busy (over HTTP/2, every stream
 * of every connection) waits in its queue and is sent when one frees up (the wait counts in its
 * response time), and one the generator itself took late is sent late. Either way the sent rate
 * dips, then catches up. Pure: reads the result only.
 *
 * @module
 */
import { formatDurationMs } from "../../runner/plan/mod.ts";
import type { IntervalResult, RunResult } from "../../runner/model/mod.ts";
import { isHttp2, streamsText, waitedFor } from "../../runner/result/read/mod.ts";

/** A dip: at least this share of an interval's scheduled requests was not sent within it… */
const DIP_SHARE = 0.1;
/** …and at least this many requests (a late request or two at a low rate is no dip). */
const DIP_REQUESTS = 2;

/**
 * The seconds in which the sent rate fell below the intended rate: at least 10% and at least 2 of
 * the requests scheduled in the interval were not written within it.
 */
export function sentRateDips(intervals: readonly IntervalResult[]): IntervalResult[] {
  return intervals.filter((i) => {
    const seconds = i.durationMs / 1000;
    const unsent = (i.intendedPerSec - i.sentPerSec) * seconds;
    return unsent >= DIP_REQUESTS && unsent >= DIP_SHARE * i.intendedPerSec * seconds;
  });
}

/**
 * The note under the throughput chart, or undefined when requests neither waited for a
 * connection (over HTTP/2, a free stream) nor were sent below the intended rate in any second.
 */
export function sentRateNote(
  result: Pick<RunResult, "intervals" | "health" | "plan" | "run">,
): string | undefined {
  const dips = sentRateDips(result.intervals);
  const h = result.health;
  const queued = h.queueWait.count;
  if (queued === 0 && dips.length === 0) return undefined;
  const where = dips.length === 0
    ? `Requests waited for ${waitedFor(result)}`
    : `“Sent per second” dips below the intended rate in ${dips.length} second${
      dips.length === 1 ? "" : "s"
    } (the first ${+(dips[0].startMs / 1000).toFixed(1)} s into the run)`;
  if (queued > 0) {
    const open = `${h.connections.peak} connections tailgate had open (the plan's ` +
      `max_connections is ${result.plan.load.maxConnections})`;
    const busy = isHttp2(result)
      ? `every stream of the ${open}, ${streamsText(result.run.maxStreams)}, was busy`
      : `all ${open} were busy`;
    const freed = isHttp2(result) ? "a stream" : "a connection";
    return `${where}: ${busy} with unanswered requests, so ${queued} requests waited in ` +
      `tailgate's queue (up to ${formatDurationMs(h.queueWait.maxUs / 1000)}) and were sent as ` +
      `soon as ${freed} freed up. None was skipped: the rate catches up once answers come back, ` +
      "and each wait counts in that request's response time.";
  }
  return `${where}: tailgate itself fell behind its schedule (see Tool health) and sent those ` +
    "requests late. None was skipped: the rate catches up, and the lateness counts in each " +
    "request's response time.";
}
