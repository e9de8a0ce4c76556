import assert from "node:assert/strict";
import { errorsOf, MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";

Deno.test("parsePlan() resolves a minimal plan with defaults filled in", () => {
  const { plan, issues } = parseText(MINIMAL_PLAN);
  assert.deepEqual(issues, []);
  assert.ok(plan);
  assert.equal(plan.requests[0].url, "http://127.0.0.1:8080/");
  assert.equal(plan.requests[0].label, "GET /");
  assert.equal(plan.requests[0].timeoutMs, 10_000);
  assert.deepEqual(plan.requests[0].expect, { codes: [], classes: [2] });
  assert.equal(plan.load.connections, 50);
  assert.equal(plan.load.maxConnections, 50);
  assert.equal(plan.load.arrival, "constant");
  assert.deepEqual(plan.load.stages[0], {
    kind: "constant",
    index: 0,
    name: "1k/s for 10s",
    ratePerSec: 1000,
    durationMs: 10_000,
    warmup: false,
    line: 7,
  });
});

Deno.test("parsePlan() reports every problem of a plan, not only the first", () => {
  const parse = parseText(`name: t
target: http://127.0.0.1:8080
requests:
  - path: /
    metod: GET
load:
  conections: 5
  stages:
    - { rate: 20k/s, duration: 60sec }
    - { ramp: 1k/s -> 2k/s }
`);
  assert.equal(parse.plan, undefined);
  assert.deepEqual(errorsOf(parse), [
    "5:5 unknown key `metod` in `requests[0]`",
    "7:3 unknown key `conections` in `load`",
    "9:32 unknown unit `sec` in `60sec`",
    "10:7 this ramp has no `over`",
  ]);
  const hints = parse.issues.map((i) => i.hint);
  assert.deepEqual(hints.slice(0, 3), [
    "did you mean `method`?",
    "did you mean `connections`?",
    "write `60s`",
  ]);
});

Deno.test("parsePlan() suggests where a misplaced top-level key belongs", () => {
  const parse = parseText(MINIMAL_PLAN + "rate_limit: 5\n");
  assert.deepEqual(errorsOf(parse), ["8:1 unknown key `rate_limit`"]);
  assert.match(parse.issues[0].hint!, /load.stages/);
});

Deno.test("parsePlan() reads a ramp and a poisson arrival with its seed", () => {
  const { plan } = parseText(MINIMAL_PLAN.replace(
    "    - { rate: 1k/s, duration: 10s }",
    "    - { ramp: 1k/s -> 30k/s, over: 2m }\n  arrival: poisson\n  seed: 42",
  ));
  assert.ok(plan);
  assert.deepEqual(
    { ...plan.load.stages[0], line: 0 },
    {
      kind: "ramp",
      index: 0,
      name: "1k/s -> 30k/s over 2m",
      fromPerSec: 1000,
      toPerSec: 30_000,
      durationMs: 120_000,
      warmup: false,
      line: 0,
    },
  );
  assert.equal(plan.load.arrival, "poisson");
  assert.equal(plan.load.seed, 42);
});

Deno.test("parsePlan() substitutes ${env.X} in headers and marks the header secret", () => {
  const text = MINIMAL_PLAN.replace(
    "requests:",
    'defaults:\n  headers:\n    Authorization: "Bearer ${env.TOKEN}"\n    Accept: text/plain\nrequests:',
  );
  const { plan } = parseText(text, { env: { TOKEN: "s3cret" } });
  assert.ok(plan);
  const auth = plan.requests[0].headers.find((h) => h.name === "Authorization")!;
  assert.equal(auth.value, "Bearer s3cret");
  assert.equal(auth.template, "Bearer ${env.TOKEN}");
  assert.equal(auth.secret, true);
  assert.equal(plan.requests[0].headers.find((h) => h.name === "Accept")!.secret, false);
});

Deno.test("parsePlan() errors on an unset variable before a run, warns under check", () => {
  const text = MINIMAL_PLAN.replace(
    "requests:",
    'defaults:\n  headers:\n    X-Key: "${env.NOPE}"\nrequests:',
  );
  const run = parseText(text, { requireEnv: true });
  assert.deepEqual(errorsOf(run), ["5:13 environment variable `NOPE` is not set"]);
  const check = parseText(text, { requireEnv: false });
  assert.ok(check.plan);
  assert.equal(check.issues[0].severity, "warning");
});

Deno.test("parsePlan() reads text, JSON and file bodies, and checks the file exists", () => {
  const text = MINIMAL_PLAN.replace(
    "  - path: /\n",
    "  - { name: a, method: POST, path: /a, body: hello }\n" +
      "  - { name: b, method: POST, path: /b, body: { json: { id: 1, tags: [x] } } }\n" +
      "  - { name: c, method: PUT, path: /c, body: { file: body.bin } }\n",
  );
  const { plan } = parseText(text, { files: { "/plans/body.bin": 12 } });
  assert.ok(plan);
  assert.deepEqual(plan.requests.map((r) => r.body), [
    { kind: "text", text: "hello" },
    { kind: "json", text: '{"id":1,"tags":["x"]}' },
    { kind: "file", path: "/plans/body.bin", sizeBytes: 12 },
  ]);
  assert.ok(plan.requests[1].headers.some((h) => h.name === "content-type"));
  const missing = parseText(text);
  assert.deepEqual(errorsOf(missing), [
    "6:53 body file `body.bin` does not exist or is not a regular file",
  ]);
});

Deno.test("parsePlan() refuses a body file above 16 MiB, where the plan names it", () => {
  // A 1 GB body file took 2.2 GB of memory at run time: it is refused when the plan is read.
  const text = MINIMAL_PLAN.replace(
    "  - path: /\n",
    "  - { method: PUT, path: /c, body: { file: big.bin } }\n",
  );
  const cap = 16 * 1024 * 1024;
  assert.ok(parseText(text, { files: { "/plans/big.bin": cap } }).plan, "16 MiB is allowed");
  const big = parseText(text, { files: { "/plans/big.bin": 1024 ** 3 } });
  assert.deepEqual(errorsOf(big), [
    "4:44 body file `big.bin` is 1073741824 bytes; a body file may be at most 16777216 (16 MiB)",
  ]);
  assert.match(big.issues[0].hint ?? "", /smaller body/);
});

Deno.test("parsePlan() joins paths onto a target with a base path and accepts full URLs", () => {
  const text = MINIMAL_PLAN.replace("http://127.0.0.1:8080", "https://127.0.0.1:8443/api/")
    .replace("  - path: /\n", "  - path: /orders?limit=2\n  - url: https://127.0.0.1:8443/x\n");
  const { plan } = parseText(text);
  assert.ok(plan);
  assert.equal(plan.target, "https://127.0.0.1:8443/api");
  assert.deepEqual(plan.requests.map((r) => r.url), [
    "https://127.0.0.1:8443/api/orders?limit=2",
    "https://127.0.0.1:8443/x",
  ]);
  assert.deepEqual(plan.requests.map((r) => r.label), ["GET /api/orders?limit=2", "GET /x"]);
});

Deno.test("parsePlan() refuses requests to a second origin, since connections are per origin", () => {
  const text = MINIMAL_PLAN.replace("  - path: /\n", "  - path: /\n  - url: http://[::1]:9000/x\n");
  assert.deepEqual(errorsOf(parseText(text)), [
    "5:10 this request goes to http://[::1]:9000, the first to http://127.0.0.1:8080",
  ]);
});

Deno.test("parsePlan() binds SLOs to stage rates and request labels that exist", () => {
  const text = MINIMAL_PLAN + 'slo:\n  - p99 < 10ms at 1k/s\n  - p99 < 10ms for "GET /"\n';
  const { plan } = parseText(text);
  assert.ok(plan);
  assert.deepEqual(plan.slos.map((s) => [s.atRatePerSec, s.label, s.line]), [
    [1000, undefined, 9],
    [undefined, "GET /", 10],
  ]);
  const bad = parseText(MINIMAL_PLAN + 'slo:\n  - p99 < 10ms at 2k/s\n  - p99 < 1s for "GET /x"\n');
  assert.deepEqual(errorsOf(bad), [
    "9:5 no stage runs at 2k/s",
    "10:5 no request is labelled `GET /x`",
  ]);
});

Deno.test("parsePlan() refuses an SLO bound only to a warmup stage", () => {
  const text = MINIMAL_PLAN.replace(
    "  stages:\n",
    "  stages:\n    - { rate: 500/s, duration: 5s, warmup: true }\n",
  ) + "slo:\n  - p50 < 1ms at 500/s\n";
  assert.deepEqual(errorsOf(parseText(text)), [
    "10:5 the only stage at 500/s is a warmup, which gates skip",
  ]);
});

Deno.test("parsePlan() points an SLO error at the offending word inside the string", () => {
  const parse = parseText(MINIMAL_PLAN + 'slo:\n  - "p99 < 10 parsecs"\n');
  assert.equal(parse.issues[0].line, 9);
  assert.equal(parse.issues[0].col, 12); // under `10`: the string opens at col 6, `10` is 6 further
});

Deno.test("parsePlan() warns when the plan sends too few requests to judge a percentile", () => {
  const parse = parseText(MINIMAL_PLAN + "slo:\n  - p99.99 < 10ms\n  - p99 < 10ms\n");
  assert.ok(parse.plan);
  const warnings = parse.issues.filter((i) => i.severity === "warning");
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0].message,
    /p99.99 cannot pass with fewer than 36887 requests.*about 10000/,
  );
  assert.match(warnings[0].hint!, /run at least 37s/);
});

Deno.test("parsePlan() refuses a plan whose stages are all warmups", () => {
  const text = MINIMAL_PLAN.replace("duration: 10s }", "duration: 10s, warmup: true }");
  assert.deepEqual(errorsOf(parseText(text)), [
    "7:5 every stage is a warmup, so nothing would be judged",
  ]);
});

Deno.test("parsePlan() refuses duplicate labels, bad methods, weights and statuses", () => {
  const text = MINIMAL_PLAN.replace(
    "  - path: /\n",
    "  - { name: a, path: /, method: get }\n  - { name: a, path: /, weight: -1, expect: 700 }\n",
  );
  assert.deepEqual(errorsOf(parseText(text)), [
    "4:33 `get` is not an HTTP method",
    "5:13 two requests have the label `a`",
    "5:33 `requests[1].weight` must be above 0, not -1",
    "5:45 `expect` takes status codes (`200`, `[200, 204]`) or classes (`2xx`)",
  ]);
});

Deno.test("parsePlan() refuses a weight above 1000000, which no mix needs", () => {
  // 1e308 twice overflowed the mix's sum: a:0 and b:40 were sent. Weights are relative.
  const text = MINIMAL_PLAN.replace(
    "  - path: /\n",
    "  - { name: a, path: /a, weight: 1e308 }\n  - { name: b, path: /b, weight: 1000000 }\n",
  );
  assert.deepEqual(errorsOf(parseText(text)), [
    "4:34 `requests[0].weight` must be at most 1000000, not 1e+308",
  ]);
});

Deno.test("parsePlan() refuses max_connections below connections", () => {
  const text = MINIMAL_PLAN.replace("load:\n", "load:\n  connections: 10\n  max_connections: 5\n");
  assert.deepEqual(errorsOf(parseText(text)), [
    "7:20 `max_connections` (5) is below `connections` (10)",
  ]);
});

Deno.test("parsePlan() expands YAML aliases but refuses an alias bomb", () => {
  const aliased =
    MINIMAL_PLAN.replace("requests:\n  - path: /\n", "requests:\n  - &r { path: / }\n") +
    "# anchors are fine\n";
  assert.ok(parseText(aliased).plan);
  let bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 8; i++) {
    bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]\n`;
  }
  const errors = errorsOf(parseText(bomb));
  assert.equal(errors.length, 1);
  assert.match(errors[0], /more than 100000 YAML nodes/);
});

Deno.test("parsePlan() resolves each alias to the nearest anchor before it, in one pass", () => {
  // A redefined anchor: each alias takes the latest definition above it, as YAML says.
  const redefined = `name: t
target: http://127.0.0.1:8080
requests:
  - { name: first, path: &p /one }
  - { name: second, path: *p }
  - { name: third, path: &p /two }
  - { name: fourth, path: *p }
load:
  stages: [{ rate: 10/s, duration: 1s }]
`;
  const { plan } = parseText(redefined);
  assert.ok(plan);
  assert.deepEqual(
    plan.requests.map((r) => new URL(r.url).pathname),
    ["/one", "/one", "/two", "/two"],
  );
  // 40,000 aliases and 20,000 aliased stages: each alias used to search the whole document
  // (136 s and 17.5 s). The bound below only tells a hang from an answer.
  const aliases = `${MINIMAL_PLAN}x-list:\n  - &a 1\n${"  - *a\n".repeat(40_000)}`;
  const stages = MINIMAL_PLAN.replace(/stages:[\s\S]*$/, "stages:\n") +
    `    - &s { rate: 1/s, duration: 1s }\n${"    - *s\n".repeat(20_000)}`;
  for (const text of [aliases, stages]) {
    const startedMs = performance.now();
    parseText(text);
    const tookMs = performance.now() - startedMs;
    assert.ok(tookMs < 10_000, `took ${Math.round(tookMs)} ms`);
  }
  assert.equal(parseText(stages).plan?.load.stages.length, 20_001);
});

Deno.test("parsePlan() reads a long comment line above a plan in linear time, and comments alone are empty", () => {
  // A whole-text pattern backtracked exponentially here: 24 `#` took seconds, 60 would never end.
  const banner = `${"#".repeat(60)}\n`;
  const parse = parseText(banner + MINIMAL_PLAN);
  assert.ok(parse.plan, JSON.stringify(parse.issues));
  const empty = parseText(`${banner}  # only comments\n\n#\r\n`);
  assert.equal(empty.plan, undefined);
  assert.match(empty.issues[0].message, /the plan is empty/);
});

Deno.test("parsePlan() refuses infinite numbers: a 400-digit rate or duration, `.inf` weight, an SLO bound", () => {
  const huge = "9".repeat(400);
  const parse = parseText(`name: t
target: http://127.0.0.1:8080
requests:
  - { path: /, weight: .inf }
load:
  stages:
    - { rate: ${huge}/s, duration: 10s }
    - { rate: 10/s, duration: ${huge}s }
slo:
  - max < ${huge}s
`);
  assert.equal(parse.plan, undefined);
  const messages = parse.issues.filter((i) => i.severity === "error").map((i) => i.message);
  assert.ok(
    messages.some((m) => /weight.* must be a finite number, not Infinity/.test(m)),
    messages.join("\n"),
  );
  assert.ok(
    messages.some((m) => /^rate `9{24}… \(402 characters\)` is too large to be a number$/.test(m)),
    messages.join("\n"),
  );
  assert.ok(
    messages.some((m) => /^duration `9{24}… \(401 characters\)` is too large/.test(m)),
    messages.join("\n"),
  );
  assert.ok(
    messages.filter((m) => /too large to be a number/.test(m)).length >= 3,
    messages.join("\n"),
  );
});

Deno.test("parsePlan() confines body files to the plan's folder: no secrets sent from elsewhere", () => {
  const withBody = (file: string) =>
    MINIMAL_PLAN.replace(
      "  - path: /\n",
      `  - { method: PUT, path: /c, body: { file: "${file}" } }\n`,
    );
  const files = {
    "/plans/data/body.bin": 3,
    "/proc/self/environ": 0,
    "/etc/passwd": 100,
    "/etc/shadow": 100,
  };
  assert.ok(parseText(withBody("data/body.bin"), { files }).plan, "below the plan's folder");
  for (const outside of ["/proc/self/environ", "../etc/passwd", "data/../../etc/shadow"]) {
    const parse = parseText(withBody(outside), { files });
    assert.equal(parse.plan, undefined, outside);
    assert.match(errorsOf(parse)[0], /body file `.*` lies outside the plan's folder$/, outside);
  }
});

Deno.test("parsePlan() refuses credentials in a target or request URL: they would be stored", () => {
  const inTarget = parseText(
    MINIMAL_PLAN.replace("http://127.0.0.1:8080", "http://ops:hunter2@127.0.0.1:8080"),
  );
  assert.equal(inTarget.plan, undefined);
  assert.match(errorsOf(inTarget)[0], /^2:9 the URL carries credentials/);
  const inRequest = parseText(
    MINIMAL_PLAN.replace("  - path: /\n", "  - url: https://ops:hunter2@127.0.0.1:8443/x\n"),
  );
  assert.equal(inRequest.plan, undefined);
  assert.match(errorsOf(inRequest)[0], /the URL carries credentials/);
  for (const issue of [...inTarget.issues, ...inRequest.issues]) {
    assert.ok(!`${issue.message} ${issue.hint}`.includes("hunter2"), "the secret is not echoed");
  }
});

Deno.test("parsePlan() refuses absurd rates and stage lengths, and warns about enormous ones", () => {
  const parse = parseText(`name: t
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 10M/s, duration: 10s }
    - { rate: 200M/s, duration: 10s }
    - { rate: 10/s, duration: 10000h }
    - { rate: 10/s, duration: 48h }
    - { ramp: 10/s -> 2M/s, over: 1m }
`);
  assert.equal(parse.plan, undefined);
  const at = (severity: string) =>
    parse.issues.filter((i) => i.severity === severity).map((i) => `${i.line}: ${i.message}`);
  assert.deepEqual(at("error"), [
    "7: 200M/s is beyond any generator (at most 100M/s per plan)",
    "8: a stage of 10000 h is longer than the 720 h a stage may last",
  ]);
  assert.deepEqual(at("warning").map((w) => w.slice(0, 2)), ["6:", "9:", "10"]);
  // Ordinary plans stay quiet.
  assert.deepEqual(parseText(MINIMAL_PLAN).issues, []);
});

Deno.test("parsePlan() refuses a stage that plans less than one request", () => {
  // 0.0000001/s for 2s plans 0.0000002 requests: one sent at the start, and a run that proves nothing.
  const parse = parseText(`name: t
target: http://127.0.0.1:8080
requests: [{ path: / }]
load:
  stages:
    - { rate: 0.0000001/s, duration: 2s }
    - { ramp: 0.1/s -> 0.3/s, over: 4s }
    - { rate: 1/s, duration: 1s }
    - { ramp: 0.1/s -> 0.4/s, over: 4s }
`);
  assert.deepEqual(errorsOf(parse), [
    "6:15 at `0.0000001/s` for `2s` this stage plans less than one request (rate × duration)",
    "7:15 at `0.1/s -> 0.3/s` over `4s` this stage plans less than one request (rate × duration)",
  ]);
  const issue = parse.issues[0];
  assert.match(issue.hint ?? "", /raise the rate or lengthen the stage/);
});

Deno.test("parsePlan() says what thousands of nested brackets, a -0% bound and ${env} in a path mean", () => {
  const deep = parseText(`a: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
  assert.match(errorsOf(deep)[0], /nests too deeply to read .* write it flatter/);
  const negative = parseText(`${MINIMAL_PLAN}slo:\n  - error_rate < -0%\n`);
  assert.match(errorsOf(negative)[0], /`-0%` is outside 0%\.\.100%/);
  // `${env.X}` in a path is read, sent percent-encoded, and never printed: the URL keeps it.
  const secret = parseText(MINIMAL_PLAN.replace("path: /", 'path: "/u/${env.USER_ID}"'), {
    env: { USER_ID: "a b" },
  });
  const request = secret.plan!.requests[0];
  assert.ok(request.url.endsWith("/u/${env.USER_ID}"));
  assert.deepEqual(request.template!.target, [
    { kind: "text", text: "/u/" },
    { kind: "secret", value: "a%20b", template: "${env.USER_ID}" },
  ]);
  const unknown = parseText(MINIMAL_PLAN.replace("path: /", 'path: "/u/${uuid}"'));
  assert.deepEqual(errorsOf(unknown), ["4:15 `${uuid}` is not a known substitution"]);
});

Deno.test("parsePlan() points an unclosed [ or { at where it opened, not where the file goes on", () => {
  const sequence = parseText(`name: t
target: http://127.0.0.1:8080
requests: [{ path: "/a # not a comment [" }
load:
  stages: [{ rate: 10/s, duration: 1s }]
`);
  assert.deepEqual(errorsOf(sequence), ["3:11 this `[` is never closed"]);
  assert.match(sequence.issues[0].hint ?? "", /close it with `]` before line 4/);
  const map = parseText(`name: t
target: http://127.0.0.1:8080
requests:
  - { path: /
load:
  stages: [{ rate: 10/s, duration: 1s }]
`);
  assert.deepEqual(errorsOf(map), ["4:5 this `{` is never closed"]);
});

Deno.test("parsePlan() reads `allow_errors`, refuses a non-boolean and suggests it for a slip", () => {
  assert.equal(parseText(MINIMAL_PLAN).plan?.allowErrors, undefined);
  assert.equal(parseText(MINIMAL_PLAN + "allow_errors: false\n").plan?.allowErrors, undefined);
  assert.equal(parseText(MINIMAL_PLAN + "allow_errors: true\n").plan?.allowErrors, true);
  assert.equal(errorsOf(parseText(MINIMAL_PLAN + "allow_errors: often\n")).length, 1);
  const slip = parseText(MINIMAL_PLAN + "ignore_errors: true\n");
  assert.deepEqual(errorsOf(slip), ["8:1 unknown key `ignore_errors`"]);
  assert.equal(slip.issues[0].hint, "did you mean `allow_errors`?");
  const typo = parseText(MINIMAL_PLAN + "allow_error: true\n");
  assert.equal(typo.issues[0].hint, "did you mean `allow_errors`?");
});

Deno.test("parsePlan() warns when a window cannot hold enough requests at the plan's rate", () => {
  // 1k/s for 10 s: a 2 s window holds 2,000 requests, p99.9 needs 3,688 to pass.
  const parse = parseText(
    MINIMAL_PLAN + "slo:\n  - p99.9 < 10ms over 2s\n  - p99 < 10ms over 2s\n",
  );
  assert.ok(parse.plan);
  const warnings = parse.issues.filter((i) => i.severity === "warning");
  assert.equal(warnings.length, 1, JSON.stringify(warnings));
  assert.equal(warnings[0].line, 9);
  assert.match(
    warnings[0].message,
    /a 2s window at 1k\/s holds about 2000 requests, and p99.9 cannot pass with fewer than 3688/,
  );
  assert.match(warnings[0].hint ?? "", /use `over 4s` or more/);
});

Deno.test("parsePlan() warns when no whole window fits in the stages an SLO binds to", () => {
  const text = MINIMAL_PLAN.replace(
    "  stages:\n",
    "  stages:\n    - { rate: 1k/s, duration: 8s }\n    - { rate: 2k/s, duration: 4s }\n",
  ) + "slo:\n  - p99 < 10ms over 20s\n  - p99 < 10ms over 20s at 1k/s\n  - p99 < 10ms over 15s\n";
  const warnings = parseText(text).issues.filter((i) => i.severity === "warning");
  // Every stage runs on for 22 s in a row; the two at 1k/s are not adjacent (8 s and 10 s).
  assert.deepEqual(warnings.map((w) => w.line), [12]);
  assert.match(warnings[0].message, /do not last 20s in a row.*the longest run lasts 10s/);
});

Deno.test("parsePlan() reads fail_fast as true or false, and names a mistaken value", () => {
  assert.equal(parseText(`${MINIMAL_PLAN}fail_fast: true\n`).plan?.failFast, true);
  assert.equal(parseText(`${MINIMAL_PLAN}fail_fast: false\n`).plan?.failFast, undefined);
  assert.equal(parseText(MINIMAL_PLAN).plan?.failFast, undefined);
  assert.deepEqual(errorsOf(parseText(`${MINIMAL_PLAN}fail_fast: yes please\n`)), [
    "8:12 `fail_fast` must be true or false",
  ]);
  const k6 = parseText(`${MINIMAL_PLAN}abortOnFail: true\n`);
  assert.match(k6.issues[0].hint ?? "", /did you mean `fail_fast`\?/);
});
