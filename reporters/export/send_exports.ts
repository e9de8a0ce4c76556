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
  /** Stops sending (the run's Ctrl-C): what is left is counted as not delivered. */
  signal?: AbortSignal;
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
 * Sends `batches` (one batch, or parts made one at a time: run_metrics.ts `runMetricParts`) to
 * `target` as `wire` speaks, and reports what it took. A part is asked for only once the one
 * before it was sent, so what is held is one part's series. Never throws for the receiver: an
 * unreachable, slow or refusing one is a report with fewer delivered.
 */
export async function sendExport(
  batches: MetricBatch | Iterable<MetricBatch>,
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
  const blot = blotter(target, options.secrets ?? []);
  const report: SendReport = {
    receiver: `${target.kind} ${target.urlText}`,
    series: 0,
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
  const parts = "series" in batches ? [batches] : batches;
  let fallback = false;
  let queuedBytes = 0;
  // Set once nothing more is sent: the rest is only counted.
  let stopped = false;
  for (const part of parts) {
    for (const chunk of chunked(part, options.seriesPerRequest ?? 200)) {
      report.series += chunk.series.length;
      if (stopped) continue;
      if (options.signal?.aborted) {
        reason("not sent: the run was stopped");
        stopped = true;
        continue;
      }
      if (now() >= deadline) {
        reason(
          `not sent: the ${((options.deadlineMs ?? 20_000) / 1000).toFixed(0)} s allowed ran out`,
        );
        stopped = true;
        continue;
      }
      let body = wire.encode(chunk, fallback);
      queuedBytes += body.byteLength;
      if (queuedBytes > maxQueueBytes) {
        reason(`not sent: more than ${bytesText(maxQueueBytes)} to send`);
        stopped = true;
        continue;
      }
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const left = deadline - now();
        if (left <= 0 || options.signal?.aborted) break;
        report.requests++;
        const timeoutMs = Math.min(options.timeoutMs ?? 5_000, left);
        const answer = await post(fetchFn, url, headers, body, timeoutMs, options.signal);
        if (answer.ok) {
          report.delivered += chunk.series.length;
          break;
        }
        if (
          !fallback && answer.status !== undefined && wire.refuses?.(answer.status, answer.body)
        ) {
          fallback = true;
          report.fellBack = true;
          body = wire.encode(chunk, true);
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
  }
  return report;
}

/**
 * What a warning may show of a text: the target's URL as it may be printed, every secret (its
 * headers' and the plan's, as written, percent-encoded and JSON-escaped) as `***`; done before
 * the text is cut, so no secret is shown in part.
 */
function blotter(target: ExportTarget, secrets: readonly string[]): (text: string) => string {
  const forms: Array<[string, string]> = [[target.url, target.urlText]];
  for (const s of [...target.headers.filter((h) => h.secret).map((h) => h.value), ...secrets]) {
    if (s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])) {
      forms.push([form, "***"]);
    }
  }
  // Longest first: a secret that holds another is blotted whole.
  forms.sort((x, y) => y[0].length - x[0].length);
  return (text) => forms.reduce((t, [form, shown]) => t.split(form).join(shown), text);
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
  stop: AbortSignal | undefined,
): Promise<{ ok: boolean; status?: number; body: string }> {
  const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
  try {
    const response = await fetchFn(url, {
      method: "POST",
      headers,
      body: body as Uint8Array<ArrayBuffer>,
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
    });
    const text = response.ok ? "" : await bodyStart(response);
    if (response.ok) await response.body?.cancel().catch(() => {});
    return { ok: response.ok, status: response.status, body: text };
  } catch (e) {
    return {
      ok: false,
      body: stop?.aborted
        ? "not sent: the run was stopped"
        : timeout.aborted
        ? `no answer within ${(timeoutMs / 1000).toFixed(1)} s`
        : (e as Error).message,
    };
  }
}

/** The first {@linkcode ERROR_BODY_BYTES} of an answer's body as text; the rest is not read. */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const bytes = new Uint8Array(ERROR_BODY_BYTES);
  let length = 0;
  try {
    while (length < bytes.length) {
      const { value, done } = await reader.read();
      if (done) break;
      const take = Math.min(value.length, bytes.length - length);
      bytes.set(value.subarray(0, take), length);
      length += take;
    }
  } catch {
    // What came before the failure is the body's start.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(bytes.subarray(0, length));
}

/** How much of a refusing answer's body is read: enough for its reason, never the whole of it. */
const ERROR_BODY_BYTES = 4096;

function bytesText(bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(0)} MiB` : `${bytes} bytes`;
}
