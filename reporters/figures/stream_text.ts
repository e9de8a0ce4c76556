/**
 * The messages per stream of a gRPC run's server-streaming labels (terminal, Markdown, HTML): over
 * the measured stages (warmup left out; every stage when all are warmup), as the label rows count
 * requests, each such label's response messages over its successful calls (`messages / ok`), which
 * the latency of a stream (to its end) and its first message (ttfb) stand beside. Unary labels and
 * HTTP runs have none.
 *
 * @module
 */
import type { RunResult } from "../../runner/model/mod.ts";

/**
 * One phrase per server-streaming label that had a successful call, in the plan's order:
 * `RouteGuide/ListFeatures 64 messages per stream (1,280 in 20 streams)`; none for an HTTP run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { streamPhrases } from "./stream_text.ts";
 * const counts = { ok: 20, messages: 1_290 };
 * const result = {
 *   plan: { requests: [{ label: "Features", grpc: { call: "r.R/F", serverStreaming: true } }] },
 *   stages: [{ warmup: false, labels: [{ label: "Features", counts }] }],
 * } as never;
 * assert.deepEqual(streamPhrases(result), ["Features 64.5 messages per stream (1,290 in 20 streams)"]);
 * ```
 */
export function streamPhrases(result: Pick<RunResult, "plan" | "stages">): string[] {
  const streaming = result.plan.requests.filter((r) => r.grpc?.serverStreaming);
  if (streaming.length === 0) return [];
  const measured = result.stages.filter((s) => !s.warmup);
  const stages = measured.length > 0 ? measured : result.stages;
  return streaming.flatMap(({ label }) => {
    let ok = 0;
    let messages = 0;
    for (const s of stages) {
      for (const l of s.labels) {
        if (l.label !== label) continue;
        ok += l.counts.ok;
        messages += l.counts.messages ?? 0;
      }
    }
    if (ok === 0) return [];
    const streams = `${ok.toLocaleString("en-US")} stream${ok === 1 ? "" : "s"}`;
    return [
      `${label} ${messagesPerStream({ ok, messages })} (${
        messages.toLocaleString("en-US")
      } in ${streams})`,
    ];
  });
}

/**
 * A server stream's messages per successful call, to a tenth: `64 messages per stream`; undefined
 * when no call succeeded.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messagesPerStream } from "./stream_text.ts";
 * assert.equal(messagesPerStream({ ok: 3, messages: 4 }), "1.3 messages per stream");
 * assert.equal(messagesPerStream({ ok: 0 }), undefined);
 * ```
 */
export function messagesPerStream(
  counts: Pick<RunResult["totals"]["counts"], "ok" | "messages">,
): string | undefined {
  if (counts.ok === 0) return undefined;
  const each = (counts.messages ?? 0) / counts.ok;
  return `${each.toLocaleString("en-US", { maximumFractionDigits: 1 })} messages per stream`;
}
