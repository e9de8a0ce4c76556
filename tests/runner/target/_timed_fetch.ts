/**
 * A GET whose timing and target headers the target tests read.
 *
 * @module
 */

/** One response as the target tests see it. */
export interface TimedResponse {
  status: number;
  body: string;
  /** `x-tailgate-index`: the request's arrival order at the server. */
  index: number;
  /** `x-tailgate-delay-ms`: the latency the server chose. */
  delayMs: number;
  /** Client clock (performance.now) when the request was sent and when its body was read. */
  sentAtMs: number;
  doneAtMs: number;
}

/**
 * GETs `url` and reads the whole body, so no response is left open.
 *
 * @example
 * ```ts
 * const r = await timedGet(target.url);
 * r.doneAtMs - r.sentAtMs; // the latency seen by the client
 * ```
 */
export async function timedGet(url: string): Promise<TimedResponse> {
  const sentAtMs = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  return {
    status: response.status,
    body,
    index: Number(response.headers.get("x-tailgate-index")),
    delayMs: Number(response.headers.get("x-tailgate-delay-ms")),
    sentAtMs,
    doneAtMs: performance.now(),
  };
}

/**
 * Resolves after `ms` milliseconds.
 *
 * @example
 * ```ts
 * await sleep(50);
 * ```
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
