import assert from "node:assert/strict";
import { errorsOf, MINIMAL_PLAN, parseText } from "../../_helpers/plan_fixtures.ts";

/** The minimal plan with `lines` added to its `load`, each on its own line (the first is line 6). */
const withLoad = (...lines: string[]) =>
  MINIMAL_PLAN.replace("load:\n", `load:\n${lines.map((l) => `  ${l}\n`).join("")}`);

Deno.test("parsePlan() leaves http and max_streams out of a load that does not give them", () => {
  const { plan, issues } = parseText(MINIMAL_PLAN);
  assert.deepEqual(issues, []);
  assert.ok(plan);
  assert.equal("http" in plan.load, false);
  assert.equal("maxStreams" in plan.load, false);
});

Deno.test("parsePlan() reads http as 1.1 or 2, written as a number or as text", () => {
  const cases: Array<[string, string]> = [
    ["http: 1.1", "1.1"],
    ['http: "1.1"', "1.1"],
    ["http: 2", "2"],
    ["http: '2'", "2"],
  ];
  for (const [line, http] of cases) {
    const { plan, issues } = parseText(withLoad(line));
    assert.deepEqual(issues, [], line);
    assert.equal(plan?.load.http, http, line);
  }
});

Deno.test("parsePlan() refuses any other http where it is written, with the versions to use", () => {
  for (const value of ["3", "1", "h2", "true", "http/2", "[2]"]) {
    const { plan, issues } = parseText(withLoad(`http: ${value}`));
    assert.equal(plan, undefined, value);
    const shown = value === "[2]" ? "…" : value;
    assert.deepEqual(
      issues.map((i) => [i.severity, i.path, i.line, i.col, i.message, i.hint]),
      [["error", "load.http", 6, 9, `unknown HTTP version \`${shown}\``, "use `1.1` or `2`"]],
      value,
    );
  }
});

Deno.test("parsePlan() reads max_streams with http: 2, a whole number from 1 to 1000", () => {
  const { plan, issues } = parseText(withLoad("http: 2", "max_streams: 8"));
  assert.deepEqual(issues, []);
  assert.equal(plan?.load.maxStreams, 8);
  assert.ok(parseText(withLoad("http: 2", "max_streams: 1000")).plan);
  assert.deepEqual(errorsOf(parseText(withLoad("http: 2", "max_streams: 0"))), [
    "7:16 `load.max_streams` must be at least 1, not 0",
  ]);
  assert.deepEqual(errorsOf(parseText(withLoad("http: 2", "max_streams: 1001"))), [
    "7:16 `load.max_streams` must be at most 1000, not 1001",
  ]);
  assert.deepEqual(errorsOf(parseText(withLoad("http: 2", "max_streams: 2.5"))), [
    "7:16 `load.max_streams` must be a whole number, not 2.5",
  ]);
});

Deno.test("parsePlan() refuses max_streams without http: 2, where it is written, saying why", () => {
  for (const lines of [["max_streams: 8"], ["http: 1.1", "max_streams: 8"]]) {
    const { plan, issues } = parseText(withLoad(...lines));
    assert.equal(plan, undefined, lines.join(", "));
    assert.equal(issues.length, 1, lines.join(", "));
    const [issue] = issues;
    assert.equal(issue.path, "load.max_streams");
    assert.equal(issue.line, 5 + lines.length);
    assert.equal(issue.col, 16);
    assert.match(
      issue.message,
      /`max_streams` is a setting of HTTP\/2, and this load sends HTTP\/1\.1/,
    );
    assert.match(issue.hint ?? "", /add `http: 2` to `load`, or remove `max_streams`/);
  }
  // A wrong http is the one error: whether max_streams fits it cannot be told.
  assert.deepEqual(errorsOf(parseText(withLoad("http: 3", "max_streams: 8"))), [
    "6:9 unknown HTTP version `3`",
  ]);
});

Deno.test("parsePlan() suggests http and max_streams for the names other tools use", () => {
  const hints = (line: string) => parseText(withLoad(line)).issues.map((i) => i.hint);
  assert.deepEqual(hints("http_version: 2"), ["did you mean `http`?"]);
  assert.deepEqual(hints("max_concurrent_streams: 8"), ["did you mean `max_streams`?"]);
});

Deno.test("parsePlan() reads window_mib with http: 2, 1 to 2047 MiB, and refuses it without", () => {
  const { plan, issues } = parseText(withLoad("http: 2", "window_mib: 64"));
  assert.deepEqual(issues, []);
  assert.equal(plan?.load.windowMib, 64);
  assert.equal("windowMib" in (parseText(withLoad("http: 2")).plan?.load ?? {}), false);
  assert.deepEqual(errorsOf(parseText(withLoad("http: 2", "window_mib: 2048"))), [
    "7:15 `load.window_mib` must be at most 2047, not 2048",
  ]);
  const without = parseText(withLoad("window_mib: 64"));
  assert.equal(without.plan, undefined);
  assert.deepEqual(
    without.issues.map((i) => [i.path, i.line, i.col, i.message, i.hint]),
    [[
      "load.window_mib",
      6,
      15,
      "`window_mib` is a setting of HTTP/2, and this load sends HTTP/1.1 (the default)",
      "add `http: 2` to `load`, or remove `window_mib` (HTTP/1.1 has no flow-control window)",
    ]],
  );
});
