/**
 * `tailgate run URL --rate 1k/s --duration 30s …`: an ad-hoc run without a plan file. The flags
 * become the text of an equivalent plan, which is then validated like any plan (the same errors,
 * the same units), and which `--print-plan` prints, so a trial becomes a committed plan. Each line
 * of that text remembers the flag that wrote it, so a problem found in it is told as a problem of
 * the flag (adhoc_issues.ts). Pure.
 *
 * The plan's structure is this module's alone: every value from the command line is written as one
 * quoted scalar (or as bare text that YAML reads back as the same one value), and the command line
 * on top is one comment line with its control characters escaped, so no argument can add a key.
 *
 * @module
 */
import { printable } from "../../plan/mod.ts";
import { wireTextProblem } from "../../plan/mod.ts";
import { err, ok, problem, problems, problemText, type Result } from "../../model/mod.ts";

/** The ad-hoc flags, as given. */
export interface AdHocFlags {
  /** The URL to load (scheme, host, port, path and query); its path may hold `{{…}}` templates. */
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
  /** `NAME=FILE[,order=O][,exhausted=E]`: the plan's `data` sources (files relative to the cwd). */
  data?: string[];
  /** `NAME=SPEC` (`uuid`, `counter`, `int:1:20`, `choice:eu|us`, or a YAML flow mapping). */
  vars?: string[];
  /** `--http2`: the plan's `load.http: 2` (h2 by ALPN to an https URL, h2c to an http one). */
  http2?: boolean;
  /** `--proto FILE` (a `grpc://` URL): the plan's `grpc.proto` files (relative to the cwd). */
  proto?: string[];
  /** `-d JSON` (a `grpc://` URL): the call's request message, a JSON object. */
  message?: string;
}

/** The command-line argument one line of the made plan came from. */
export interface AdHocSource {
  /** The flag as written (`--duration`, `-H`), or `URL` for the URL argument. */
  flag: string;
  /** Its value as given. */
  value: string;
}

/** The plan the flags stand for: its text, and per line (index 0 is line 1) the flag behind it. */
export interface AdHocPlan {
  text: string;
  /** `lines[n - 1]` is the argument line n was written from; undefined for the plan's frame. */
  lines: Array<AdHocSource | undefined>;
}

/**
 * The plan text the flags stand for, or the problems that keep them from being one.
 */
export function adHocPlanText(
  flags: AdHocFlags,
): Result<AdHocPlan> {
  const errors: string[] = [];
  let url: URL | undefined;
  // The URL parser drops a line break or a tab without a word: refused before it can.
  const control = wireTextProblem(flags.url, "url");
  if (control) {
    errors.push(
      `the URL ${shellQuote(flags.url)} holds ${control.char}: a URL cannot hold control ` +
        `characters; ${control.hint}`,
    );
  } else {
    try {
      url = new URL(flags.url);
    } catch {
      errors.push(`\`${flags.url}\` is not a URL: write e.g. http://127.0.0.1:8080/orders`);
    }
  }
  if (url && url.protocol !== "http:" && url.protocol !== "https:") {
    errors.push(`\`${flags.url}\`: only http and https URLs are loaded`);
  }
  if (flags.rate === undefined) errors.push("an ad-hoc run needs --rate, e.g. --rate 1k/s");
  if (flags.duration === undefined) {
    errors.push("an ad-hoc run needs --duration, e.g. --duration 30s");
  }
  const headers = headerFlags(flags.headers, errors, 'a header as "Name: value"');
  const data: Array<[string, string]> = [];
  for (const d of flags.data ?? []) {
    const made = dataLine(d);
    if (made.ok) data.push([made.value, d]);
    else errors.push(...made.problems.map(problemText));
  }
  const vars = varFlags(flags.vars ?? [], errors);
  if (errors.length || url === undefined) return err(problems(errors));

  const { add, fromUrl, plan } = planWriter(flags.url);
  const method = (flags.method ?? "GET").toUpperCase();
  const path = requestTarget(flags.url, url);
  const pathOnly = path.replace(/\?.*$/, "");
  for (const line of comment(`tailgate run ${commandLine(flags)}`)) add(line);
  fromUrl(`name: ${q(`ad-hoc ${method} ${url.host}${pathOnly}`)}`);
  fromUrl(`target: ${q(url.origin)}`);
  if (data.length) {
    add("data:");
    for (const [line, d] of data) add(`  ${line}`, "--data", d);
  }
  if (vars.length) {
    add("vars:");
    for (const [line, v] of vars) add(`  ${line}`, "--var", v);
  }
  add("requests:");
  fromUrl(`  - name: ${q(`${method} ${pathOnly}`)}`);
  if (flags.method === undefined) add(`    method: ${method}`);
  else add(`    method: ${plain(method)}`, "--method", flags.method);
  fromUrl(`    path: ${q(path)}`);
  if (headers.length) {
    add("    headers:");
    for (const [k, v, h] of headers) add(`      ${q(k)}: ${q(v)}`, "-H", h);
  }
  if (flags.body !== undefined) {
    add(
      flags.body.startsWith("@")
        ? `    body: { file: ${q(flags.body.slice(1))} }`
        : `    body: ${q(flags.body)}`,
      "--body",
      flags.body,
    );
  }
  add("load:");
  if (flags.connections !== undefined) {
    add(`  connections: ${plain(flags.connections)}`, "--connections", flags.connections);
  }
  if (flags.http2) add("  http: 2", "--http2", "");
  add("  stages:");
  // One flag per line, so a problem found in a line names the flag that wrote it.
  const stage = (name: string, duration: [string, string], warmup: boolean) => {
    add(`    - name: ${name}`);
    add(`      rate: ${plain(flags.rate!)}`, "--rate", flags.rate!);
    add(`      duration: ${plain(duration[1])}`, duration[0], duration[1]);
    if (warmup) add("      warmup: true", "--warmup", duration[1]);
  };
  if (flags.warmup !== undefined) stage("warmup", ["--warmup", flags.warmup], true);
  stage("steady", ["--duration", flags.duration!], false);
  if (flags.slos.length) {
    add("slo:");
    for (const s of flags.slos) add(`  - ${q(s)}`, "--slo", s);
  }
  return ok(plan());
}

/**
 * A plan's text written line by line, each line with the flag it came from (`fromUrl`: the URL);
 * `plan()` is the text so far.
 */
export function planWriter(url: string): {
  add: (line: string, flag?: string, value?: string) => void;
  fromUrl: (line: string) => void;
  plan: () => AdHocPlan;
} {
  const text: string[] = [];
  const lines: Array<AdHocSource | undefined> = [];
  const add = (line: string, flag?: string, value?: string) => {
    text.push(line);
    lines.push(flag === undefined ? undefined : { flag, value: value! });
  };
  return {
    add,
    fromUrl: (line) => add(line, "URL", url),
    plan: () => ({ text: text.join("\n") + "\n", lines: [...lines] }),
  };
}

/**
 * `-H` flags as `[name, value, flag]`; one without a colon is an error (`write ${usage}`) in
 * `errors`.
 */
export function headerFlags(
  given: readonly string[],
  errors: string[],
  usage: string,
): Array<[string, string, string]> {
  const headers: Array<[string, string, string]> = [];
  for (const h of given) {
    const i = h.indexOf(":");
    if (i <= 0) errors.push(`-H \`${h}\`: write ${usage}`);
    // Only spaces and tabs are trimmed: any other control character is the plan's to refuse.
    else headers.push([trimBlanks(h.slice(0, i)), trimBlanks(h.slice(i + 1)), h]);
  }
  return headers;
}

/** `--var` flags as `[plan line, flag]`; each one that cannot be read is an error in `errors`. */
export function varFlags(given: readonly string[], errors: string[]): Array<[string, string]> {
  const vars: Array<[string, string]> = [];
  for (const v of given) {
    const made = varLine(v);
    if (made.ok) vars.push([made.value, v]);
    else errors.push(...made.problems.map(problemText));
  }
  return vars;
}

/**
 * An argument as the shell takes it back: bare when it is plain, in single quotes when it holds
 * no control character, else in `$'…'` with each control character escaped (`$'a\nb'`), so it
 * stays on one line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shellQuote } from "./adhoc_plan.ts";
 * assert.equal(shellQuote("p99 < 10ms"), "'p99 < 10ms'");
 * assert.equal(shellQuote("a\nb"), "$'a\\nb'");
 * ```
 */
export function shellQuote(s: string): string {
  if (/^[\w@%+=:,./-]+$/.test(s)) return s;
  if (printable(s) === s) return `'${s.replaceAll("'", "'\\''")}'`;
  return `$'${printable(s.replaceAll("\\", "\\\\").replaceAll("'", "\\'"))}'`;
}

/** Text as the lines of a YAML comment: each line `# `-prefixed, whatever breaks it. */
export function comment(text: string): string[] {
  return text.split(/\r\n|[\n\r\u0085\u2028\u2029]/).map((line) => `# ${line}`);
}

/** A YAML double-quoted scalar on one line: JSON's escapes, and DEL, C1 controls, U+2028/2029
 * and the byte-order mark escaped too, so the plan text holds no control character. */
export const q = (s: string) =>
  JSON.stringify(s).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** Text without leading and trailing spaces and tabs (the optional whitespace around a header
 * value, RFC 9110). */
export const trimBlanks = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, "");

/** A value bare when YAML reads it as written (`1k/s`, `30s`, `64`), else quoted: a flag's value
 * stays one value on its own line, whatever it holds. */
export const plain = (s: string) => /^(?:[\w.+/]|-(?=\d))[\w.+/%-]*$/.test(s) ? s : q(s);

/**
 * The request-target (`/path?query`) the plan sends: from the URL as written when it holds a
 * template, because `new URL()` percent-encodes the `{{` of `/users/{{users.id}}` in a path.
 */
function requestTarget(raw: string, url: URL): string {
  const parsed = `${url.pathname}${url.search}`;
  if (!raw.includes("{{") && !raw.includes("${")) return parsed;
  const authority = /^\s*[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(raw);
  if (authority === null) return parsed;
  const rest = raw.slice(authority[0].length).trimEnd().replace(/#.*$/, "");
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** The options `--data NAME=FILE,…` takes after the file, with their values. */
const DATA_OPTIONS: Record<string, readonly string[]> = {
  order: ["sequence", "random", "shuffle"],
  exhausted: ["wrap", "error"],
};

/** `--data users=users.csv,order=shuffle` as the line `users: { file: "users.csv", order: shuffle }`. */
function dataLine(arg: string): Result<string> {
  const usage = "write --data NAME=FILE (a CSV file with a header row, or .jsonl), e.g. " +
    "--data users=users.csv, optionally with ,order=sequence|random|shuffle and " +
    ",exhausted=wrap|error";
  const eq = arg.indexOf("=");
  if (eq <= 0) return err(problem(`--data ${shellQuote(arg)}: ${usage}`));
  const name = arg.slice(0, eq).trim();
  let file = arg.slice(eq + 1);
  const options: Array<[string, string]> = [];
  // Options are taken from the end, so a comma elsewhere in a file name is kept.
  for (
    let m = /,\s*([A-Za-z_]+)=([^,]*)$/.exec(file);
    m;
    m = /,\s*([A-Za-z_]+)=([^,]*)$/.exec(file)
  ) {
    const [whole, key, value] = m;
    if (!(key in DATA_OPTIONS)) {
      return err(problem(
        `--data ${shellQuote(arg)}: \`${key}\` is not an option of --data; give ` +
          Object.entries(DATA_OPTIONS).map(([k, v]) => `,${k}=${v.join("|")}`).join(" or "),
      ));
    }
    if (options.some(([k]) => k === key)) {
      return err(problem(`--data ${shellQuote(arg)}: \`${key}\` is given twice`));
    }
    options.unshift([key, value.trim()]);
    file = file.slice(0, file.length - whole.length);
  }
  file = file.trim();
  if (file === "") return err(problem(`--data ${shellQuote(arg)}: name the file; ${usage}`));
  const fields = [`file: ${plain(file)}`, ...options.map(([k, v]) => `${k}: ${plain(v)}`)];
  return ok(`${yamlKey(name)}: { ${fields.join(", ")} }`);
}

/** `--var qty=int:1:20` as the line `qty: { int: [1, 20] }`. */
function varLine(arg: string): Result<string> {
  const kinds = "uuid, counter, int:MIN:MAX, choice:A|B|C, or a YAML form such as " +
    "'{ int: [1, 20] }'";
  const eq = arg.indexOf("=");
  if (eq <= 0) {
    return err(problem(`--var ${shellQuote(arg)}: write --var NAME=SPEC, e.g. --var qty=int:1:20`));
  }
  const name = yamlKey(arg.slice(0, eq).trim());
  const spec = arg.slice(eq + 1).trim();
  const bad = (why: string) => err(problem(`--var ${shellQuote(arg)}: ${why}`));
  if (spec === "uuid" || spec === "counter") return ok(`${name}: ${spec}`);
  if (spec.startsWith("{")) {
    // A YAML flow mapping, written into the plan as given: one line, so it stays one value.
    if (printable(spec) !== spec) {
      return bad("write the YAML form on one line, without control characters");
    }
    return ok(`${name}: ${spec}`);
  }
  const colon = spec.indexOf(":");
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const rest = colon < 0 ? undefined : spec.slice(colon + 1);
  if (kind === "int") {
    const bounds = rest?.split(":") ?? [];
    if (bounds.length !== 2 || !bounds.every((b) => /^\s*[+-]?\d+\s*$/.test(b))) {
      return bad("`int` takes two whole numbers, int:MIN:MAX, e.g. int:1:20 (both inclusive)");
    }
    const [min, max] = bounds.map((b) => Number(b));
    if (min > max) {
      return bad(`\`int\` of ${min} to ${max}: min is above max; write int:${max}:${min}`);
    }
    return ok(`${name}: { int: [${min}, ${max}] }`);
  }
  if (kind === "choice") {
    const values = rest === undefined || rest === "" ? [] : rest.split("|");
    if (values.length === 0) {
      return bad("`choice` takes values, choice:A|B|C, e.g. choice:eu|us|ap");
    }
    return ok(`${name}: { choice: [${values.map(choiceValue).join(", ")}] }`);
  }
  return bad(
    spec === ""
      ? `give what the var draws: ${kinds}`
      : `\`${kind}\` is not a kind of var; write ${kinds}`,
  );
}

/** A choice as YAML: numbers and true/false as themselves, anything else as text. */
function choiceValue(v: string): string {
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(v) || v === "true" || v === "false") return v;
  return /^[A-Za-z_][\w-]*$/.test(v) && !/^(null|true|false)$/i.test(v) ? v : q(v);
}

/** A mapping key: bare when YAML reads it as the same text, else quoted. */
function yamlKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : q(name);
}

/** The flags as a command line, for the plan's first comment. */
export function commandLine(f: AdHocFlags): string {
  const parts = [shellQuote(f.url)];
  const add = (flag: string, value: string | undefined) => {
    if (value !== undefined) parts.push(flag, shellQuote(value));
  };
  add("--rate", f.rate);
  add("--duration", f.duration);
  add("--connections", f.connections);
  add("--warmup", f.warmup);
  if (f.http2) parts.push("--http2");
  add("--method", f.method);
  for (const h of f.headers) add("-H", h);
  add("--body", f.body);
  for (const d of f.data ?? []) add("--data", d);
  for (const v of f.vars ?? []) add("--var", v);
  for (const p of f.proto ?? []) add("--proto", p);
  add("-d", f.message);
  for (const s of f.slos) add("--slo", s);
  return parts.join(" ");
}
