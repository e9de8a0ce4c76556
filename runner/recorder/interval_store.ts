/**
 * Where closed intervals go. The engine thread closes an interval every second; summarising and
 * encoding it (percentiles, deflate, base64: about a millisecond per histogram) would stall the
 * thread that times requests, so the run's store hands that work to a background worker
 * (interval_encoder_worker.ts) that runs at a low priority. Tests and merges use the inline store.
 *
 * @module
 */
import type { IntervalResult } from "../model/mod.ts";
import { encodeRawInterval, type RawInterval } from "./raw_interval.ts";

/** Receives closed intervals and hands back their encoded results. */
export interface IntervalStore {
  /** Takes a closed interval; must be cheap on the calling thread. */
  add(raw: RawInterval): void;
  /** Every interval added so far, encoded, in the order added (complete after `flush`). */
  all(): IntervalResult[];
  /** The 99th percentile (us) of the latest encoded interval, for progress lines. */
  latestP99Us(): number | undefined;
  /** Resolves once every interval added so far is encoded; later adds are encoded inline. */
  flush(): Promise<void>;
  /** Releases the store's resources (its worker). */
  close(): void;
}

/**
 * Encodes each interval as it is added, on the calling thread.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InlineIntervalStore } from "./interval_store.ts";
 * const store = new InlineIntervalStore();
 * assert.equal(store.all().length, 0);
 * ```
 */
export class InlineIntervalStore implements IntervalStore {
  readonly #encoded: IntervalResult[] = [];

  add(raw: RawInterval): void {
    this.#encoded.push(encodeRawInterval(raw));
  }

  all(): IntervalResult[] {
    return this.#encoded;
  }

  latestP99Us(): number | undefined {
    return this.#encoded.at(-1)?.response.percentilesUs["99"];
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  close(): void {}
}
