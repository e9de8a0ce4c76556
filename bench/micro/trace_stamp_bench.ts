/**
 * What `trace: true` costs per request on the engine thread: a send's `traceparent` written into
 * its request's bytes (the ids of request n computed, 48 hex digits written over a pooled copy of
 * the fixed request, given back at completion), against the same send without trace, and the
 * HTTP/2 block's patch; beside it, what the recorder's slowest requests and exemplars cost per
 * completion (kept with or without trace). The whole run's CPU per request with and without trace
 * is `bench/trace_cost.ts`'s. Run with `deno bench bench/micro/trace_stamp_bench.ts`.
 *
 * @module
 */
import { prepareRequest } from "../../runner/engine/http1/mod.ts";
import { TraceStamp } from "../../runner/engine/mod.ts";
import { H2RequestEncoder } from "../../runner/engine/http2/mod.ts";
import { traceIdHex, writeTraceparent } from "../../runner/schedule/mod.ts";
import { SlowestTally } from "../../runner/recorder/slowest_tally.ts";
import type { PlanRequest } from "../../runner/plan/mod.ts";

const REQUEST: PlanRequest = {
  label: "GET /index.html",
  method: "GET",
  url: "http://127.0.0.1:8080/index.html",
  headers: [],
  weight: 1,
  timeoutMs: 5000,
  expect: { codes: [], classes: [2] },
};
const plain = prepareRequest(REQUEST, 0);
const traced = prepareRequest(REQUEST, 0, undefined, {});
const stamp = new TraceStamp(42);
const h2 = new H2RequestEncoder("http").encode(traced.bytes);
let n = 0;
/** Keeps the results alive, so nothing is optimised away. */
let sink = 0;

Deno.bench(
  "send without trace (the fixed request as it is)",
  { group: "send", baseline: true },
  () => {
    const sent = n++ % 2 === 0 ? plain : plain;
    sink ^= sent.bytes[0];
  },
);
Deno.bench("send with trace (stamp a pooled copy, give it back)", { group: "send" }, () => {
  const sent = stamp.stamp(traced, true, n++, 0);
  sink ^= sent.bytes[sent.traceAt! + 3];
  stamp.release(sent, false);
});
Deno.bench("send with trace over HTTP/2 (and the block's patch)", { group: "send" }, () => {
  const sent = stamp.stamp(traced, true, n++, 0);
  const at = sent.traceAt!, from = sent.bytes, into = h2.block, to = h2.traceAt;
  for (let i = 0; i < 55; i++) into[to + i] = from[at + i];
  sink ^= h2.block[h2.traceAt + 3];
  stamp.release(sent, false);
});

const bytes = new Uint8Array(55);
Deno.bench("writeTraceparent: request n's ids as 55 octets", () => {
  writeTraceparent(bytes, 0, 42, n++, 0);
  sink ^= bytes[3];
});
Deno.bench("traceIdHex: one kept request's trace id (at the run's end)", () => {
  sink ^= traceIdHex(42, n++, 0).length;
});

const tally = new SlowestTally();
Deno.bench("slowest and exemplars: one completion (1-2 ms, a rare slow one)", () => {
  const k = n++;
  const us = k % 1000 === 0 ? 100_000 + (k % 7919) : 1000 + (k * 7919) % 1000;
  tally.add(k, 0, k / 10, us, 200, undefined, true);
});

addEventListener("unload", () => {
  if (sink === 0.5) console.log(sink);
});
