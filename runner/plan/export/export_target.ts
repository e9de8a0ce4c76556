/**
 * A receiver of the run's metrics, as the plan's `export` and `--export KIND=URL` name it: its
 * URL checked, its printable form (a secret never shown), and where OTLP's metrics go.
 *
 * @module
 */
import { err, ok, type Problem, problem, type Result } from "../../model/mod.ts";
import type { ExportKind, ExportTarget } from "../types.ts";

/** The exporters `--export` and `export:` know. */
export const EXPORT_KINDS: readonly ExportKind[] = ["prometheus", "otlp"];

/**
 * What is wrong with `url` as a `kind` receiver, or undefined: an http(s) URL with a host.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exportUrlProblem } from "./export_target.ts";
 * assert.equal(exportUrlProblem("otlp", "http://127.0.0.1:4318"), undefined);
 * assert.match(exportUrlProblem("prometheus", "127.0.0.1:9090")!.message, /not an http/);
 * ```
 */
export function exportUrlProblem(kind: ExportKind, url: string): Problem | undefined {
  const example = kind === "prometheus"
    ? "http://127.0.0.1:9090/api/v1/write"
    : "http://127.0.0.1:4318";
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.hostname === "") {
    return problem(
      `\`${url}\` is not an http(s) URL for ${kind}`,
      `write e.g. \`${example}\``,
    );
  }
  return undefined;
}

/**
 * A URL as it may be printed: its user information (`user:pass@`, a token alone) and the values
 * of its query replaced by `***`; an `${env.NAME}` template is printed as written (its value
 * never is).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { printableUrl } from "./export_target.ts";
 * assert.equal(printableUrl("https://u:hunter2@m.example/api/v1/write?key=k1"), "https://***@m.example/api/v1/write?key=***");
 * assert.equal(printableUrl("https://glc_t0ken@m.example/"), "https://***@m.example/");
 * assert.equal(printableUrl("${env.PROM_URL}"), "${env.PROM_URL}");
 * ```
 */
export function printableUrl(text: string): string {
  return text
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1***@")
    .replace(/([?&][^=&#]*)=[^&#]*/g, "$1=***");
}

/**
 * Reads one `--export KIND=URL`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseExportFlag } from "./export_target.ts";
 * const read = parseExportFlag("otlp=http://127.0.0.1:4318");
 * assert.ok(read.ok && read.value.kind === "otlp" && read.value.url === "http://127.0.0.1:4318");
 * assert.equal(parseExportFlag("statsd=udp://x").ok, false);
 * ```
 */
export function parseExportFlag(text: string): Result<ExportTarget> {
  const at = text.indexOf("=");
  const kind = at < 0 ? text : text.slice(0, at);
  const url = at < 0 ? "" : text.slice(at + 1);
  if (!(EXPORT_KINDS as readonly string[]).includes(kind)) {
    return err(problem(
      `--export ${printableUrl(text)}: \`${kind}\` is not an exporter`,
      "write `--export prometheus=URL` (remote write) or `--export otlp=URL` (OTLP/HTTP)",
    ));
  }
  if (url === "") {
    return err(problem(`--export ${kind} needs its URL`, `write \`--export ${kind}=URL\``));
  }
  const bad = exportUrlProblem(kind as ExportKind, url);
  if (bad) {
    return err({ ...bad, message: `--export: ${bad.message.replace(url, printableUrl(url))}` });
  }
  return ok({ kind: kind as ExportKind, url, urlText: printableUrl(url), headers: [] });
}

/**
 * Where OTLP's metrics are posted: the base URL's `/v1/metrics`, or the URL as it is when it
 * already names that path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { otlpMetricsUrl } from "./export_target.ts";
 * assert.equal(otlpMetricsUrl("http://127.0.0.1:4318"), "http://127.0.0.1:4318/v1/metrics");
 * assert.equal(otlpMetricsUrl("http://c:4318/otlp/"), "http://c:4318/otlp/v1/metrics");
 * assert.equal(otlpMetricsUrl("http://c:4318/v1/metrics"), "http://c:4318/v1/metrics");
 * ```
 */
export function otlpMetricsUrl(base: string): string {
  const url = new URL(base);
  if (url.pathname.endsWith("/v1/metrics")) return url.href;
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/metrics`;
  return url.href;
}
