/**
 * `tailgate run URL --rate 1k/s --duration 30s …`: an ad-hoc run without a plan file. The flags
 * become the text of an equivalent plan, which is then validated like any plan (the same errors,
 * the same units), and which `--print-plan` prints, so a trial becomes a committed plan. Pure.
 *
 * @module
 */

/** The ad-hoc flags, as given. */
export interface AdHocFlags {
  /** The URL to load (scheme, host, port, path and query). */
  url: string;
  /** The rate, in the plan language (`1k/s`, `500/s`). */
  rate?: string;
  /** How long (`30s`, `2m`). */
  duration?: string;
  /** Connections to open up front (`load.connections`). */
  connections?: string;
  /** A warmup at the same rate before the measured stage (`5s`). */
  warmup?: string;
  /** SLO lines, as in a plan's `slo` list. */
  slos: string[];
  /** `K: V` headers. */
  headers: string[];
  /** The HTTP method (default GET). */
  method?: string;
  /** The body: text, or `@file` for a file's content. */
  body?: string;
}

/**
 * The plan text the flags stand for, or the problems that keep them from being one.
 *
 * @example
 * ```ts
 * import { adHocPlanText } from "./adhoc_plan.ts";
 * const r = adHocPlanText({ url: "http://127.0.0.1:8080/orders", rate: "1k/s", duration: "30s", slos: [], headers: [] });
 * // r.ok && r.text starts with "# tailgate run http://127.0.0.1:8080/orders --rate 1k/s --duration 30s"
 * ```
 */
export function adHocPlanText(
  flags: AdHocFlags,
): { ok: true; text: string } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(flags.url);
  } catch {
    errors.push(`\`${flags.url}\` is not a URL: write e.g. http://127.0.0.1:8080/orders`);
  }
  if (url && url.protocol !== "http:" && url.protocol !== "https:") {
    errors.push(`\`${flags.url}\`: only http and https URLs are loaded`);
  }
  if (flags.rate === undefined) errors.push("an ad-hoc run needs --rate, e.g. --rate 1k/s");
  if (flags.duration === undefined) {
    errors.push("an ad-hoc run needs --duration, e.g. --duration 30s");
  }
  const headers: Array<[string, string]> = [];
  for (const h of flags.headers) {
    const i = h.indexOf(":");
    if (i <= 0) errors.push(`-H \`${h}\`: write a header as "Name: value"`);
    else headers.push([h.slice(0, i).trim(), h.slice(i + 1).trim()]);
  }
  if (errors.length || url === undefined) return { ok: false, errors };
  const q = (s: string) => JSON.stringify(s);
  const method = (flags.method ?? "GET").toUpperCase();
  const path = `${url.pathname}${url.search}`;
  const lines = [
    `# tailgate run ${commandLine(flags)}`,
    `name: ${q(`ad-hoc ${method} ${url.host}${url.pathname}`)}`,
    `target: ${q(url.origin)}`,
    "requests:",
    `  - name: ${q(`${method} ${url.pathname}`)}`,
    `    method: ${method}`,
    `    path: ${q(path)}`,
  ];
  if (headers.length) {
    lines.push("    headers:");
    for (const [k, v] of headers) lines.push(`      ${q(k)}: ${q(v)}`);
  }
  if (flags.body !== undefined) {
    lines.push(
      flags.body.startsWith("@")
        ? `    body: { file: ${q(flags.body.slice(1))} }`
        : `    body: ${q(flags.body)}`,
    );
  }
  lines.push("load:");
  if (flags.connections !== undefined) lines.push(`  connections: ${flags.connections}`);
  lines.push("  stages:");
  if (flags.warmup !== undefined) {
    lines.push(
      `    - { name: warmup, rate: ${flags.rate}, duration: ${flags.warmup}, warmup: true }`,
    );
  }
  lines.push(`    - { name: steady, rate: ${flags.rate}, duration: ${flags.duration} }`);
  if (flags.slos.length) {
    lines.push("slo:");
    for (const s of flags.slos) lines.push(`  - ${q(s)}`);
  }
  return { ok: true, text: lines.join("\n") + "\n" };
}

/** The flags as a command line, for the plan's first comment. */
function commandLine(f: AdHocFlags): string {
  const quote = (s: string) => /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
  const parts = [quote(f.url)];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) parts.push(flag, quote(value));
  };
  add("--rate", f.rate);
  add("--duration", f.duration);
  add("--connections", f.connections);
  add("--warmup", f.warmup);
  add("--method", f.method);
  for (const h of f.headers) add("-H", h);
  add("--body", f.body);
  for (const s of f.slos) add("--slo", s);
  return parts.join(" ");
}
