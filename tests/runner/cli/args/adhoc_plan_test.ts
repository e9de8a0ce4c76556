import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { join, relative } from "node:path";
import { main } from "../../../../cli.ts";
import { adHocPlanText } from "../../../../runner/cli/args/adhoc_plan.ts";
import { adHocPlanFile, checkAdHocPlan } from "../../../../runner/cli/args/adhoc_issues.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";
import { parsePlanText } from "../../../../runner/plan/load_plan.ts";
import { parseYaml } from "../../../../runner/plan/read/_yaml.ts";
import { capture } from "../../../_helpers/cli_capture.ts";
import { headerOf, recordingServer } from "../../../_helpers/recording_server.ts";
import { mulberry32 } from "../../../_helpers/seeded_random.ts";

Deno.test("adHocPlanText(): the flags become a plan that validates, with the command line on top", () => {
  const made = adHocPlanText({
    url: "http://127.0.0.1:8080/orders?limit=20",
    rate: "1k/s",
    duration: "30s",
    connections: "64",
    warmup: "5s",
    slos: ["p99 < 10ms", "error_rate < 1%"],
    headers: ["Accept: application/json", 'X-Quote: it\'s "odd"'],
    method: "post",
    body: "@body.json",
  });
  assert.ok(made.ok);
  assert.match(
    made.value.text,
    /^# tailgate run 'http:\/\/127\.0\.0\.1:8080\/orders\?limit=20' --rate 1k\/s/,
  );
  const { plan, issues } = parsePlanText(made.value.text.replace('{ file: "body.json" }', '"{}"'));
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.equal(plan!.requests[0].method, "POST");
  assert.equal(plan!.requests[0].url, "http://127.0.0.1:8080/orders?limit=20");
  assert.deepEqual(plan!.requests[0].headers.map((h) => [h.name, h.value]), [
    ["Accept", "application/json"],
    ["X-Quote", 'it\'s "odd"'],
  ]);
  assert.deepEqual(plan!.load.stages.map((s) => [s.name, s.warmup, s.durationMs]), [
    ["warmup", true, 5_000],
    ["steady", false, 30_000],
  ]);
  assert.equal(plan!.load.connections, 64);
  assert.deepEqual(plan!.slos.map((s) => s.text), ["p99 < 10ms", "error_rate < 1%"]);
  assert.match(made.value.text, /body: \{ file: "body\.json" \}/);
});

Deno.test("adHocPlanText(): a missing rate or duration, a bad URL or header is named with the fix", () => {
  const bad = adHocPlanText({ url: "ftp://x", slos: [], headers: ["NoColon"] });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "`ftp://x`: only http and https URLs are loaded",
    "an ad-hoc run needs --rate, e.g. --rate 1k/s",
    "an ad-hoc run needs --duration, e.g. --duration 30s",
    '-H `NoColon`: write a header as "Name: value"',
  ]);
});

/** A temporary folder, removed at the end of the test. */
async function tempDir(options: Deno.MakeTempOptions = {}) {
  const path = await Deno.makeTempDir({ prefix: "tailgate-adhoc-", ...options });
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

const USERS_CSV = "id,name\n1,ann\n2,bob\n3,cy\n";
const BASE = { rate: "10/s", duration: "2s", slos: [], headers: [] };

Deno.test("adHocPlanText(): --data and --var become the plan's data and vars, and the plan validates", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "users.csv"), USERS_CSV);
  const made = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/users/{{users.id}}?region={{region}}&qty={{qty}}",
    headers: ["X-Request-Id: {{id}}"],
    body: "n={{n}}",
    data: ["users=users.csv,order=shuffle,exhausted=error"],
    vars: ["qty=int:1:20", "region=choice:eu|us|ap", "id=uuid", "n=counter"],
  });
  assert.ok(made.ok, JSON.stringify(made));
  assert.deepEqual(checkAdHocPlan(made.value, { dir: dir.path }), { errors: [], warnings: [] });
  const { plan, issues } = parsePlanText(made.value.text, { file: adHocPlanFile(dir.path) });
  assert.deepEqual(issues, []);
  const [users] = plan!.data!;
  assert.deepEqual(
    [users.name, users.file, users.path, users.order, users.exhausted, users.columns, users.rows],
    ["users", "users.csv", join(dir.path, "users.csv"), "shuffle", "error", ["id", "name"], 3],
  );
  assert.deepEqual(plan!.vars!.map((v) => [v.name, v.spec]), [
    ["qty", { kind: "int", min: 1, max: 20 }],
    ["region", { kind: "choice", values: ["eu", "us", "ap"] }],
    ["id", { kind: "uuid" }],
    ["n", { kind: "counter" }],
  ]);
  // The URL's templates reach the plan as written: `new URL()` would have encoded `{{` as %7B%7B.
  assert.match(
    made.value.text,
    /path: "\/users\/\{\{users\.id\}\}\?region=\{\{region\}\}&qty=\{\{qty\}\}"/,
  );
  assert.equal(
    plan!.requests[0].url,
    "http://127.0.0.1:8080/users/{{users.id}}?region={{region}}&qty={{qty}}",
  );
  const refs = plan!.requests[0].template!.target.filter((p) => p.kind === "ref");
  assert.deepEqual(refs.map((p) => p.kind === "ref" && p.ref), [
    { kind: "column", source: "users", column: "id" },
    { kind: "var", name: "region" },
    { kind: "var", name: "qty" },
  ]);
});

Deno.test("adHocPlanText(): a --var in the YAML form is written into the plan as given", () => {
  const made = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/{{qty}}/{{code}}",
    vars: ["qty={ int: [1, 20] }", "code=choice:007|1.5|true|a b"],
  });
  assert.ok(made.ok);
  assert.match(made.value.text, /\n {2}qty: \{ int: \[1, 20\] \}\n/);
  // Numbers and true/false stay themselves; other text is quoted so YAML keeps it as written.
  assert.match(made.value.text, /\n {2}code: \{ choice: \["007", 1\.5, true, "a b"\] \}\n/);
  const { plan, issues } = parsePlanText(made.value.text);
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
  assert.deepEqual(plan!.vars!.map((v) => v.spec), [
    { kind: "int", min: 1, max: 20 },
    { kind: "choice", values: ["007", 1.5, true, "a b"] },
  ]);
});

Deno.test("adHocPlanText(): a --var or --data the flags cannot read is named with its syntax", () => {
  const bad = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/",
    vars: ["qty", "qty=int:1", "qty=int:20:1", "x=float:1:2", "x=choice:"],
    data: ["users.csv", "users=users.csv,mode=random", "users="],
  });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "--data users.csv: write --data NAME=FILE (a CSV file with a header row, or .jsonl), e.g. " +
    "--data users=users.csv, optionally with ,order=sequence|random|shuffle and " +
    ",exhausted=wrap|error",
    "--data users=users.csv,mode=random: `mode` is not an option of --data; give " +
    ",order=sequence|random|shuffle or ,exhausted=wrap|error",
    "--data users=: name the file; write --data NAME=FILE (a CSV file with a header row, or " +
    ".jsonl), e.g. --data users=users.csv, optionally with ,order=sequence|random|shuffle and " +
    ",exhausted=wrap|error",
    "--var qty: write --var NAME=SPEC, e.g. --var qty=int:1:20",
    "--var qty=int:1: `int` takes two whole numbers, int:MIN:MAX, e.g. int:1:20 (both inclusive)",
    "--var qty=int:20:1: `int` of 20 to 1: min is above max; write int:1:20",
    "--var x=float:1:2: `float` is not a kind of var; write uuid, counter, int:MIN:MAX, " +
    "choice:A|B|C, or a YAML form such as '{ int: [1, 20] }'",
    "--var x=choice:: `choice` takes values, choice:A|B|C, e.g. choice:eu|us|ap",
  ]);
});

Deno.test("tailgate run URL: a bad --duration names --duration and its fix, not a plan file", () => {
  const parsed = parseRunArgs(["http://127.0.0.1:8080/", "--rate", "10/s", "--duration", "3"]);
  assert.ok(!parsed.ok);
  assert.deepEqual(parsed.problems.map(problemText), [
    "--duration 3: duration `3` has no unit\n" +
    "  hint: write `3s` or `3ms` (units: ns, us, ms, s, m, h)",
  ]);
  assert.doesNotMatch(parsed.problems.map(problemText).join("\n"), /\.yaml|tailgate-run/);
});

Deno.test("tailgate run URL: a --var the plan language refuses names --var and underlines the spot", () => {
  const parsed = parseRunArgs([
    "http://127.0.0.1:8080/{{qty}}",
    "--rate",
    "10/s",
    "--duration",
    "1s",
    "--var",
    "qty={ int: [1, x] }",
    "--var",
    "9lives=uuid",
  ]);
  assert.ok(!parsed.ok);
  assert.equal(parsed.problems.length, 2, parsed.problems.map(problemText).join("\n"));
  assert.match(
    problemText(parsed.problems[0]),
    /^--var 'qty=\{ int: \[1, x\] \}': .* must be a number\n/,
  );
  assert.match(problemText(parsed.problems[0]), /\n {4}--var 'qty=\{ int: \[1, x\] \}'\n {26}\^\n/);
  assert.match(
    problemText(parsed.problems[1]),
    /^--var 9lives=uuid: `9lives` is not a var name\n {2}hint: /,
  );
  assert.doesNotMatch(parsed.problems.map(problemText).join("\n"), /\.yaml/);
});

Deno.test("tailgate run URL: an unknown column in the URL's template points at the URL", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(join(dir.path, "users.csv"), USERS_CSV);
  const url = "http://127.0.0.1:8080/users/{{users.idd}}";
  const made = adHocPlanText({ ...BASE, url, data: ["users=users.csv"] });
  assert.ok(made.ok);
  assert.deepEqual(checkAdHocPlan(made.value, { dir: dir.path }).errors, [
    `the URL '${url}': data source \`users\` has no column \`idd\`\n` +
    `    the URL '${url}'\n` +
    `    ${" ".repeat("the URL '".length + url.indexOf("{{"))}${
      "^".repeat("{{users.idd}}".length)
    }\n` +
    "  hint: did you mean `{{users.id}}`?",
  ]);
  // A source the flags did not give: the hint says which flag gives it.
  const none = adHocPlanText({ ...BASE, url: "http://127.0.0.1:8080/users/{{users.id}}" });
  assert.ok(none.ok);
  const [missing] = checkAdHocPlan(none.value, { dir: dir.path }).errors;
  assert.match(missing, /^the URL .*: `users` in `{{users.id}}` is not a data source of this plan/);
  assert.match(missing, /hint: add it with `--data users=FILE`/);
});

Deno.test("tailgate run URL: a --data file outside the current folder, or missing, is named by its flag", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await Deno.writeTextFile(join(outside.path, "users.csv"), USERS_CSV);
  const file = join(outside.path, "users.csv");
  const made = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/{{users.id}}/{{more.id}}",
    data: [`users=${file}`, "more=nope.csv"],
  });
  assert.ok(made.ok);
  const { errors } = checkAdHocPlan(made.value, { dir: dir.path });
  assert.equal(errors.length, 2, errors.join("\n"));
  assert.match(
    errors[0],
    new RegExp(`^--data users=${file}: data file \`${file}\` lies outside the current folder\n`),
  );
  assert.match(errors[0], /hint: keep data files in the current folder or below it/);
  assert.match(errors[1], /^--data more=nope\.csv: data file `nope\.csv` does not exist/);
  assert.match(errors[1], /hint: paths are relative to the current folder/);
});

Deno.test("tailgate run URL: warnings of the made plan name their flag too", () => {
  const made = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/",
    vars: ["qty=int:1:20"],
  });
  assert.ok(made.ok);
  const { errors, warnings } = checkAdHocPlan(made.value, { dir: "/nonexistent" });
  assert.deepEqual(errors, []);
  assert.match(warnings[0], /^warning: --var qty=int:1:20: var `qty` is not used by any request/);
});

Deno.test("tailgate run URL --data --var --print-plan prints data and vars, its command line on top", async () => {
  // The run reads files relative to the current folder: the CSV goes in a folder below it.
  await using dir = await tempDir({ dir: Deno.cwd(), prefix: ".tailgate-adhoc-test-" });
  await Deno.writeTextFile(join(dir.path, "users.csv"), USERS_CSV);
  const file = relative(Deno.cwd(), join(dir.path, "users.csv"));
  const io = capture();
  const code = await main([
    "run",
    "http://127.0.0.1:8080/users/{{users.id}}?n={{n}}",
    "--rate",
    "10/s",
    "--duration",
    "1s",
    "--data",
    `users=${file},order=random`,
    "--var",
    "n=counter",
    "--print-plan",
  ], io);
  assert.equal(code, 0, io.err.join("\n"));
  const [printed] = io.out;
  assert.equal(
    printed.split("\n")[0],
    "# tailgate run 'http://127.0.0.1:8080/users/{{users.id}}?n={{n}}' --rate 10/s " +
      `--duration 1s --data users=${file},order=random --var n=counter`,
  );
  assert.match(printed, new RegExp(`\ndata:\n {2}users: \\{ file: ${file}, order: random \\}\n`));
  assert.match(printed, /\nvars:\n {2}n: counter\n/);
  assert.match(printed, /\n {4}path: "\/users\/\{\{users\.id\}\}\?n=\{\{n\}\}"\n/);
  // What it printed is a plan that runs the same, from the same folder.
  const { issues } = parsePlanText(printed, { file: join(Deno.cwd(), "x.yaml") });
  assert.deepEqual(issues.filter((i) => i.severity === "error"), []);
});

Deno.test("tailgate run on a templated URL sends each request with its row's and vars' values", async () => {
  await using server = recordingServer();
  await using dir = await tempDir({ dir: Deno.cwd(), prefix: ".tailgate-adhoc-test-" });
  await Deno.writeTextFile(join(dir.path, "users.csv"), USERS_CSV);
  const io = capture();
  const code = await main([
    "run",
    `${server.url}/users/{{users.id}}?region={{region}}&n={{n}}`,
    "--rate",
    "20/s",
    "--duration",
    "1s",
    "--connections",
    "2",
    "--data",
    `users=${relative(Deno.cwd(), join(dir.path, "users.csv"))}`,
    "--var",
    "region=choice:eu|us",
    "--var",
    "n=counter",
    "--var",
    "id=uuid",
    "-H",
    "X-Request-Id: {{id}}",
    "--out",
    join(dir.path, "out"),
    "--report",
    "md",
    "--no-baseline",
  ], io);
  assert.equal(code, 0, io.err.join("\n"));
  assert.equal(server.requests.length, 20);
  const seen = server.requests.map((r) => {
    const m = /^\/users\/(\d)\?region=(eu|us)&n=(\d+)$/.exec(r.target);
    assert.ok(m, r.line);
    return { id: m[1], n: Number(m[3]), requestId: headerOf(r, "X-Request-Id") };
  });
  // In file order, wrapping: 20 requests over 3 rows take row 1 and 2 seven times, row 3 six.
  const count = (id: string) => seen.filter((s) => s.id === id).length;
  assert.deepEqual([count("1"), count("2"), count("3")], [7, 7, 6]);
  assert.equal(new Set(seen.map((s) => s.n)).size, 20);
  assert.equal(new Set(seen.map((s) => s.requestId)).size, 20);
  for (const s of seen) assert.match(s.requestId!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
});

Deno.test("tailgate run URL prints the made plan's warnings as its flags, not as a plan file's lines", async () => {
  const io = capture();
  const code = await main([
    "run",
    "http://127.0.0.1:8080/",
    "--rate",
    "10/s",
    "--duration",
    "1s",
    "--var",
    "unused=uuid",
    "--print-plan",
  ], io);
  assert.equal(code, 0, io.err.join("\n"));
  const warning = io.err.find((l) => l.includes("is not used"));
  assert.ok(warning, io.err.join("\n"));
  assert.match(warning, /^warning: --var unused=uuid: var `unused` is not used by any request/);
  assert.ok(!io.err.join("\n").includes("tailgate-run.yaml"));
});

/** A control character (the line feeds between lines aside) or a line or paragraph separator. */
// deno-lint-ignore no-control-regex -- no raw control character may reach the plan text
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

/** The reproducer of issue 26: a URL whose line breaks were copied into the plan as YAML. */
const INJECTING_URL = "http://127.0.0.1:8080/\ndefaults:\n  headers:\n    X-Evil: injected\n#";

Deno.test("adHocPlanText(): a URL holding a control character is refused, naming the URL", () => {
  const bad = adHocPlanText({ ...BASE, url: INJECTING_URL });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "the URL $'http://127.0.0.1:8080/\\ndefaults:\\n  headers:\\n    X-Evil: injected\\n#' " +
    "holds a line feed (`\\n`): a URL cannot hold control characters; remove it, or " +
    "percent-encode it (`%0A`)",
  ]);
  const tab = adHocPlanText({ ...BASE, url: "http://127.0.0.1:8080/a\tb" });
  assert.ok(!tab.ok);
  assert.match(
    problemText(tab.problems[0]),
    /^the URL \$'http:\/\/127\.0\.0\.1:8080\/a\\tb' holds a tab/,
  );
});

Deno.test("adHocPlanText(): no argument can add keys; the command line is one comment, escaped", () => {
  const yaml = "\n#\ndefaults:\n  headers:\n    X-Evil: injected\nslo: []\n";
  const made = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/",
    method: "POST",
    body: yaml,
    slos: [`p99 < 10ms${yaml}`],
    headers: [`X-A: a${yaml}`, "X-B: it's \u2028 \u0085 \u001b[2J"],
    vars: ["n=counter"],
  });
  assert.ok(made.ok);
  const lines = made.value.text.split("\n");
  assert.equal(
    lines[0],
    "# tailgate run http://127.0.0.1:8080/ --rate 10/s --duration 2s --method POST " +
      "-H $'X-A: a\\n#\\ndefaults:\\n  headers:\\n    X-Evil: injected\\nslo: []\\n' " +
      "-H $'X-B: it\\'s \\u2028 \\u0085 \\u001b[2J' " +
      "--body $'\\n#\\ndefaults:\\n  headers:\\n    X-Evil: injected\\nslo: []\\n' --var n=counter " +
      "--slo $'p99 < 10ms\\n#\\ndefaults:\\n  headers:\\n    X-Evil: injected\\nslo: []\\n'",
  );
  assert.equal(lines.filter((l) => l.startsWith("#")).length, 1);
  assert.ok(!RAW_CONTROL.test(made.value.text));
  const { plan, issues } = parsePlanText(made.value.text);
  assert.equal(plan, undefined, "the header and SLO are refused");
  const found = [...new Set(issues.map((i) => i.path.split(/[.[]/)[0]))].sort();
  assert.deepEqual(found, ["requests", "slo"], "no issue outside the keys the flags wrote");
  const body = parsePlanText(
    adHocPlanTextOk({ ...BASE, url: "http://127.0.0.1:8080/", body: yaml }),
  );
  assert.deepEqual(body.issues, []);
  assert.equal(
    body.plan!.requests[0].body?.kind === "text" && body.plan!.requests[0].body.text,
    yaml,
  );
  assert.deepEqual(body.plan!.requests[0].headers, []);
});

/** The made plan's text, asserting the flags made one. */
function adHocPlanTextOk(flags: Parameters<typeof adHocPlanText>[0]): string {
  const made = adHocPlanText(flags);
  assert.ok(made.ok, JSON.stringify(made));
  return made.value.text;
}

Deno.test("tailgate run URL: -H with a control character or framing is refused, naming -H", () => {
  const parsed = parseRunArgs([
    "http://127.0.0.1:8080/",
    "--rate",
    "10/s",
    "--duration",
    "1s",
    "-H",
    "X-A: a\u001b[2Jb",
    "-H",
    "X-B: a\r\nX-Evil: 1",
    "-H",
    "X-C: trailing\n",
    "-H",
    "Transfer-Encoding: chunked",
  ]);
  assert.ok(!parsed.ok);
  const hint =
    "  hint: a header value is visible characters, spaces and tabs (RFC 9110): remove it";
  assert.deepEqual(parsed.problems.map(problemText), [
    `-H $'X-A: a\\u001b[2Jb': a header value cannot hold ESC (\`\\u001b\`)\n${hint}`,
    `-H $'X-B: a\\r\\nX-Evil: 1': a header value cannot hold a carriage return (\`\\r\`)\n${hint}`,
    `-H $'X-C: trailing\\n': a header value cannot hold a line feed (\`\\n\`)\n${hint}`,
    "-H 'Transfer-Encoding: chunked': `Transfer-Encoding` frames the request, which tailgate " +
    "does itself\n  hint: remove it: tailgate sends `Content-Length` (the body's true length) " +
    "and keeps its connections open",
  ]);
});

Deno.test("adHocPlanText(): a --var in the YAML form cannot hold control characters", () => {
  const bad = adHocPlanText({
    ...BASE,
    url: "http://127.0.0.1:8080/{{x}}",
    vars: ["x={ choice: [a] }\rdefaults: {}", "y={ choice: [\u0085] }"],
  });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map(problemText), [
    "--var $'x={ choice: [a] }\\rdefaults: {}': write the YAML form on one line, without " +
    "control characters",
    "--var $'y={ choice: [\\u0085] }': write the YAML form on one line, without control characters",
  ]);
});

Deno.test("tailgate run: the issue's injecting URL sends nothing; a YAML body is sent as itself", async () => {
  await using server = recordingServer();
  await using dir = await tempDir();
  const flags = [
    "--rate",
    "2/s",
    "--duration",
    "1s",
    "--out",
    join(dir.path, "out"),
    "--no-baseline",
  ];
  const url = INJECTING_URL.replace("http://127.0.0.1:8080", server.url);
  const io = capture();
  assert.equal(await main(["run", url, ...flags], io), 2, io.err.join("\n"));
  assert.match(io.err.join("\n"), /holds a line feed/);
  assert.equal(server.requests.length, 0);
  const body = "\ndefaults:\n  headers:\n    X-Evil: injected\n#";
  const sent = capture();
  const code = await main(
    ["run", `${server.url}/`, "--method", "POST", "--body", body, ...flags],
    sent,
  );
  assert.equal(code, 0, sent.err.join("\n"));
  assert.equal(server.requests.length, 2);
  for (const r of server.requests) {
    assert.equal(headerOf(r, "X-Evil"), undefined);
    assert.equal(r.body, body);
  }
});

/** Pieces of hostile arguments: YAML's structure, line breaks of every kind, control characters. */
const HOSTILE = [
  "\n",
  "\r",
  "\r\n",
  "\u0085",
  "\u2028",
  "\u2029",
  "\u001b[2J",
  "\u007f",
  "\u0000",
  "\t",
  "\ufeff",
  "#",
  " #",
  ": ",
  "- ",
  "---",
  "...",
  '"',
  "'",
  "\\",
  "{",
  "}",
  "[",
  "]",
  "&a",
  "*a",
  "!!str",
  "|",
  ">",
  "\ndefaults:\n  headers:\n    X-Evil: injected\n",
  "\nslo: []",
  "=",
  ",",
  "x",
  "1",
  "s",
];

Deno.test("adHocPlanText(): random hostile arguments never add a key or a line of their own", () => {
  const seed = Number(Deno.env.get("TAILGATE_FUZZ_SEED") ?? 20261126);
  const next = mulberry32(seed);
  const hostile = () =>
    Array.from(
      { length: 1 + Math.floor(next() * 6) },
      () => HOSTILE[Math.floor(next() * HOSTILE.length)],
    ).join("");
  const maybe = () => next() < 0.5 ? hostile() : undefined;
  const list = () => Array.from({ length: Math.floor(next() * 3) }, hostile);
  const TOP = new Set(["name", "target", "data", "vars", "requests", "load", "slo"]);
  const REQUEST = new Set(["name", "method", "path", "headers", "body"]);
  let [made, parsed] = [0, 0];
  for (let n = 0; n < 400; n++) {
    const flags = {
      url: `http://127.0.0.1:8080/${next() < 0.2 ? hostile() : "x"}`,
      rate: next() < 0.3 ? hostile() : "10/s",
      duration: next() < 0.3 ? hostile() : "1s",
      connections: maybe(),
      warmup: maybe(),
      method: maybe(),
      body: maybe(),
      slos: list(),
      headers: list().map((h) => `X-${h}: ${hostile()}`),
      data: list().map((d) => `d${n}=${d}`),
      vars: list().map((v) => `v=${next() < 0.5 ? `{ ${v}` : v}`),
    };
    const context = `seed ${seed}, case ${n}: ${JSON.stringify(flags)}`;
    const plan = adHocPlanText(flags);
    if (!plan.ok) continue;
    made++;
    const lines = plan.value.text.split("\n");
    assert.equal(plan.value.lines.length, lines.length - 1, context);
    assert.equal(lines.filter((l) => l.startsWith("#")).length, 1, context);
    assert.ok(!RAW_CONTROL.test(plan.value.text), `${context}\n${plan.value.text}`);
    const { root } = parseYaml(plan.value.text);
    if (root === undefined) {
      // A --var's YAML form is written as given: one that does not read is a syntax error.
      assert.equal(parsePlanText(plan.value.text).plan, undefined, context);
      continue;
    }
    assert.ok(root.kind === "map", context);
    for (const e of root.entries) assert.ok(TOP.has(e.key), `${context}: key ${e.key}`);
    const requests = root.entries.find((e) => e.key === "requests")!.value;
    assert.ok(requests.kind === "seq" && requests.items.length === 1, context);
    const [request] = requests.items;
    assert.ok(request.kind === "map", context);
    for (const e of request.entries) assert.ok(REQUEST.has(e.key), `${context}: key ${e.key}`);
    const headers = request.entries.find((e) => e.key === "headers")?.value;
    const given = headers?.kind === "map" ? headers.entries.length : 0;
    assert.equal(given, flags.headers.length, context);
    assert.doesNotThrow(() => parsePlanText(plan.value.text), context);
    parsed++;
  }
  assert.ok(made > 50 && parsed > 50, `only ${made} of 400 cases made a plan, ${parsed} read`);
});

Deno.test("tailgate run URL --http2: the made plan asks for HTTP/2, and --print-plan keeps the flag", () => {
  const args = ["http://127.0.0.1:8080/", "--rate", "10/s", "--duration", "2s", "--http2"];
  const parsed = parseRunArgs(args);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.problems.map(problemText).join("\n"));
  const text = parsed.value.adHocPlan!.text;
  assert.match(
    text,
    /^# tailgate run http:\/\/127\.0\.0\.1:8080\/ --rate 10\/s --duration 2s --http2$/m,
  );
  const { plan, issues } = parsePlanText(text);
  assert.deepEqual(issues, []);
  assert.equal(plan!.load.http, "2");
  // Without the flag the plan says nothing of the version: HTTP/1.1, as every plan before it.
  const plain = parseRunArgs(args.slice(0, -1));
  assert.ok(plain.ok);
  assert.doesNotMatch(plain.value.adHocPlan!.text, /http: |--http2/);
  assert.equal(parsePlanText(plain.value.adHocPlan!.text).plan!.load.http, undefined);
});

Deno.test("tailgate run plan.yaml --http2 is refused: a plan says `http: 2` itself", () => {
  const parsed = parseRunArgs(["plans/demo.yaml", "--http2"]);
  assert.ok(!parsed.ok);
  assert.match(
    parsed.problems.map(problemText).join("\n"),
    /--http2 describe a run against a URL \(`tailgate run http:\/\/…`\); a plan sets these itself/,
  );
});
