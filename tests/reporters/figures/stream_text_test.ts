import assert from "node:assert/strict";
import { messagesPerStream, streamPhrases } from "../../../reporters/figures/stream_text.ts";
import { grpcResult } from "../../_helpers/grpc_result_fixtures.ts";
import { writtenResult } from "../../_helpers/result_fixtures.ts";

Deno.test("streamPhrases() gives a server-streaming label's messages per stream over the measured stages", () => {
  const result = grpcResult();
  assert.deepEqual(streamPhrases(result), [
    "RouteGuide/ListFeatures 64 messages per stream (1,280 in 20 streams)",
  ]);
  // Every stage warmup: every stage counts (the warmup's 5 streams too).
  for (const s of result.stages) s.warmup = true;
  assert.deepEqual(streamPhrases(result), [
    "RouteGuide/ListFeatures 64 messages per stream (1,600 in 25 streams)",
  ]);
});

Deno.test("streamPhrases() says nothing of unary labels, HTTP runs, or a stream that never succeeded", () => {
  assert.deepEqual(streamPhrases(writtenResult()), []);
  const result = grpcResult();
  for (const s of result.stages) {
    for (const l of s.labels) if (l.label === "RouteGuide/ListFeatures") l.counts.ok = 0;
  }
  assert.deepEqual(streamPhrases(result), []);
});

Deno.test("messagesPerStream() rounds to a tenth and counts a stream without messages as 0", () => {
  assert.equal(messagesPerStream({ ok: 3, messages: 200 }), "66.7 messages per stream");
  assert.equal(messagesPerStream({ ok: 2 }), "0 messages per stream");
  assert.equal(messagesPerStream({ ok: 0, messages: 4 }), undefined);
});
