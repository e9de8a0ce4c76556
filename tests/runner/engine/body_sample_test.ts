import assert from "node:assert/strict";
import {
  BODY_SAMPLE_BYTES,
  BodyCapture,
  BodySampler,
  firstBodySamples,
  MAX_BODY_SAMPLES,
  type RawBodySample,
} from "../../../runner/engine/body_sample.ts";

const OK_2XX = { codes: [], classes: [2] };
const text = (s: RawBodySample) => new TextDecoder().decode(s.bytes);

Deno.test("BodyCapture keeps the first 512 bytes of a body, however it arrives, and counts them all", () => {
  const capture = new BodyCapture();
  const bytes = new TextEncoder().encode("x".repeat(500) + "0123456789abcdef" + "y".repeat(100));
  // Three reads, the second across the bound.
  capture.add(bytes, 0, 300);
  capture.add(bytes, 300, 600);
  capture.add(bytes, 600, bytes.length);
  assert.equal(BODY_SAMPLE_BYTES, 512);
  assert.equal(capture.length, 512);
  assert.equal(capture.bodyBytes, 616);
  assert.equal(new TextDecoder().decode(capture.bytes.subarray(500, 512)), "0123456789ab");
});

Deno.test("BodySampler captures only a status the label did not expect, until it keeps one of it", () => {
  const sampler = new BodySampler();
  assert.equal(sampler.capture(0, OK_2XX, 200), undefined, "an expected status costs nothing");
  const first = sampler.capture(0, OK_2XX, 401)!;
  const second = sampler.capture(0, OK_2XX, 401)!;
  assert.ok(first && second, "in flight together, both are captured");
  first.add(new TextEncoder().encode("first"), 0, 5);
  second.add(new TextEncoder().encode("second"), 0, 6);
  // The first answered is kept; the later one is dropped.
  sampler.keep(0, 401, second, 12.5);
  sampler.keep(0, 401, first, 13);
  assert.equal(sampler.capture(0, OK_2XX, 401), undefined, "401 of label 0 has its sample");
  assert.ok(sampler.capture(1, OK_2XX, 401), "another label's 401 has none");
  assert.ok(sampler.capture(0, OK_2XX, 503), "another code has none");
  const [kept] = sampler.samples(10);
  assert.deepEqual({ ...kept, bytes: text(kept) }, {
    labelIndex: 0,
    status: 401,
    atMs: 2.5,
    bytes: "second",
    bodyBytes: 6,
  });
});

Deno.test("BodySampler keeps at most 100 samples, whatever the labels and codes", () => {
  const sampler = new BodySampler();
  for (let label = 0; label < 30; label++) {
    for (const status of [400, 401, 403, 404, 500]) {
      const capture = sampler.capture(label, OK_2XX, status);
      if (capture) sampler.keep(label, status, capture, label);
    }
  }
  assert.equal(MAX_BODY_SAMPLES, 100);
  assert.equal(sampler.samples(0).length, 100);
  assert.equal(sampler.capture(29, OK_2XX, 418), undefined, "full: nothing more is captured");
});

Deno.test("firstBodySamples() keeps each label's and code's first by time, then by list order", () => {
  const sample = (labelIndex: number, status: number, atMs: number, body: string) => ({
    labelIndex,
    status,
    atMs,
    bytes: new TextEncoder().encode(body),
    bodyBytes: body.length,
  });
  const merged = firstBodySamples([
    [sample(0, 401, 30, "worker 0 late"), sample(1, 500, 5, "worker 0 only")],
    [sample(0, 401, 20, "worker 1 first"), sample(0, 503, 7, "tie: worker 1")],
    [sample(0, 503, 7, "tie: worker 2")],
  ]);
  assert.deepEqual(merged.map((s) => [s.labelIndex, s.status, text(s)]), [
    [1, 500, "worker 0 only"],
    [0, 503, "tie: worker 1"],
    [0, 401, "worker 1 first"],
  ]);
  const many = Array.from({ length: 150 }, (_, i) => sample(i, 500, i, "x"));
  assert.equal(firstBodySamples([many]).length, MAX_BODY_SAMPLES);
});

Deno.test("a gRPC status of one label and an HTTP status of another are sampled apart", () => {
  // grpc-status 200 is 1200 on label 0; HTTP 200 is 200 on label 1: one number each.
  const sample = (labelIndex: number, status: number): RawBodySample => ({
    labelIndex,
    status,
    atMs: 1,
    bytes: new TextEncoder().encode(`${labelIndex}/${status}`),
    bodyBytes: 5,
  });
  const merged = firstBodySamples([[sample(0, 1200)], [sample(1, 200)]]);
  assert.deepEqual(merged.map(text), ["0/1200", "1/200"]);
});
