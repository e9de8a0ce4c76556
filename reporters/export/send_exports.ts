/**
 * Sends a run's metrics to its receivers once the run has ended: each receiver's series in
 * requests of at most {@linkcode SendOptions.seriesPerRequest}, one request in flight per
 * receiver, retried with backoff on a failure that a retry can cure (no answer, 429, 5xx), all
 * within a deadline per receiver and a bound on the bytes queued. What a receiver did not take
 * is counted and said in one warning; nothing here throws for a receiver, and nothing here
 * touches the run's verdict. No warning shows a secret: a receiver is named by its printable
 * URL, and any secret value in an error's text is blotted out.
 *
 * @module
 */
import type { ExportTarget } from "../../runner/plan/mod.ts";
import type { MetricBatch } from "./metric_batch.ts";

/** How one kind of receiver is spoken to: its URL, headers and body. */
export interface ExportWire {
  /** Where the requests go. */
  url(target: ExportTarget): string;
  /** The headers of every request (content type and encoding). */
  headers: Record<string, string>;
  /** The body of one request; `fallback` after the receiver refused the first form. */
  encode(batch: MetricBatch, fallback: boolean): Uint8Array;
  /** True when an answer means: send the fallback form instead (remote write's native histograms). */
  refuses?(status: number, body: string): boolean;
}

/** How sending behaves; every field has a default. */
export interface SendOptions {
  /** Series per request (default 200). */
  seriesPerRequest?: number;
  /** Tries per request (default 3). */
  attempts?: number;
  /** Wait before the first retry, doubled for each next (default 500 ms). */
  backoffMs?: number;
  /** How long one request may take (default 5 s). */
  timeoutMs?: number;
  /** How long one receiver may take in all (default 20 s): what is left then is not sent. */
  deadlineMs?: number;
  /** Bytes of encoded requests one receiver may hold (default 32 MiB); the rest is not sent. */
  maxQueueBytes?: number;
  /** Values never to show (the plan's secrets). */
  secrets?: readonly string[];
  /** Injected for tests. */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** What one receiver took. */
export interface SendReport {
  /** `prometheus http://…` as it may be printed. */
  receiver: string;
  series: number;
  /** Series in requests the receiver accepted (2xx). */
  delivered: number;
  requests: number;
  /** Set when the receiver refused the first form and the fallback was sent. */
  fellBack?: true;
  /** Why some were not delivered (the last reason of each kind), secrets blotted out. */
  reasons: string[];
}

/**
 * Sends `batch` to `target` as `wire` speaks, and reports what it took. Never throws for the
 * receiver: an unreachable, slow or refusing one is a report with fewer delivered.
 */
export async function sendExport(
  batch: MetricBatch,
  target: ExportTarget,
  wire: ExportWire,
  options: SendOptions = {},
): Promise<SendReport> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const fetchFn = options.fetch ?? fetch;
  const deadline = now() + (options.deadlineMs ?? 20_000);
  const attempts = Math.max(1, options.attempts ?? 3);
  const maxQueueBytes = options.maxQueueBytes ?? 32 * 1024 * 1024;
  const secrets = [target.url, ...target.headers.filter((h) => h.secret).map((h) => h.value)]
    .concat(options.secrets ?? []).filter((s) => s.length >= 4);
  const blot = (text: string) =>
    secrets.reduce((t, s) => t.split(s).join(s === target.url ? target.urlText : "***"), text);
  const report: SendReport = {
    receiver: `${target.kind} ${target.urlText}`,
    series: batch.series.length,
    delivered: 0,
    requests: 0,
    reasons: [],
  };
  const reason = (text: string) => {
    const why = blot(text).slice(0, 300);
    if (!report.reasons.includes(why)) report.reasons.push(why);
  };
  const headers: Record<string, string> = { ...wire.headers };
  for (const h of target.headers) headers[h.name] = h.value;
  const url = wire.url(target);
  const chunks = chunked(batch, options.seriesPerRequest ?? 200);
  let fallback = false;
  let queuedBytes = 0;
  for (let c = 0; c < chunks.length; c++) {
    if (now() >= deadline) {
      reason(
        `not sent: the ${((options.deadlineMs ?? 20_000) / 1000).toFixed(0)} s allowed ran out`,
      );
      break;
    }
    let body = wire.encode(chunks[c], fallback);
    queuedBytes += body.byteLength;
    if (queuedBytes > maxQueueBytes) {
      reason(`not sent: more than ${bytesText(maxQueueBytes)} to send`);
      break;
    }
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const left = deadline - now();
      if (left <= 0) break;
      report.requests++;
      const answer = await post(
        fetchFn,
        url,
        headers,
        body,
        Math.min(options.timeoutMs ?? 5_000, left),
      );
      if (answer.ok) {
        report.delivered += chunks[c].series.length;
        break;
      }
      if (!fallback && answer.status !== undefined && wire.refuses?.(answer.status, answer.body)) {
        fallback = true;
        report.fellBack = true;
        body = wire.encode(chunks[c], true);
        attempt--;
        continue;
      }
      reason(
        answer.status === undefined
          ? answer.body
          : `HTTP ${answer.status}${answer.body ? `: ${answer.body.trim()}` : ""}`,
      );
      const retryable = answer.status === undefined || answer.status === 429 ||
        answer.status >= 500;
      if (!retryable || attempt === attempts) break;
      await sleep(
        Math.min((options.backoffMs ?? 500) * 2 ** (attempt - 1), Math.max(0, deadline - now())),
      );
    }
  }
  return report;
}

/**
 * The warning a report earns, or undefined when the receiver took everything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportWarning } from "./send_exports.ts";
 * const report = { receiver: "otlp http://127.0.0.1:4318", series: 40, delivered: 37, requests: 5, reasons: ["HTTP 503"] };
 * assert.equal(exportWarning(report), "export to otlp http://127.0.0.1:4318: 3 of 40 series not delivered (HTTP 503); the verdict stands");
 * assert.equal(exportWarning({ ...report, delivered: 40 }), undefined);
 * ```
 */
export function exportWarning(report: SendReport): string | undefined {
  if (report.delivered >= report.series) return undefined;
  const missing = report.series - report.delivered;
  return `export to ${report.receiver}: ${missing} of ${report.series} series not delivered` +
    `${report.reasons.length ? ` (${report.reasons.join("; ")})` : ""}; the verdict stands`;
}

/** The batch in parts of at most `size` series, each with the batch's resource. */
function chunked(batch: MetricBatch, size: number): MetricBatch[] {
  const out: MetricBatch[] = [];
  for (let i = 0; i < batch.series.length; i += Math.max(1, size)) {
    out.push({ resource: batch.resource, series: batch.series.slice(i, i + Math.max(1, size)) });
  }
  return out;
}

/** One POST: ok, or the status and the start of the body, or (no status) why there was none. */
async function post(
  fetchFn: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
  timeoutMs: number,
): Promise<{ ok: boolean; status?: number; body: string }> {
  try {
    const response = await fetchFn(url, {
      method: "POST",
      headers,
      body: body as Uint8Array<ArrayBuffer>,
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
    const text = response.ok ? "" : (await response.text().catch(() => "")).slice(0, 200);
    if (response.ok) await response.body?.cancel().catch(() => {});
    return { ok: response.ok, status: response.status, body: text };
  } catch (e) {
    const name = (e as Error).name;
    return {
      ok: false,
      body: name === "TimeoutError"
        ? `no answer within ${(timeoutMs / 1000).toFixed(1)} s`
        : (e as Error).message,
    };
  }
}

function bytesText(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(0)} MiB` : `${bytes} bytes`;
}
