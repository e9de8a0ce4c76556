import assert from "node:assert/strict";
import { parsePlan, type PlanParse } from "../../../../runner/plan/parse_plan.ts";
import type { PlanContext } from "../../../../runner/plan/plan_context.ts";
import type { TemplatePart } from "../../../../runner/plan/types.ts";
import { dataExhaustion } from "../../../../runner/schedule/data_exhaustion.ts";
import { headerOf } from "../../../_helpers/recording_server.ts";
import { runOnRecorder } from "../../../_helpers/wire_fixtures.ts";

/** Parses a plan at /plans/t.yaml whose folder holds `files` (name -> text). */
function parseWith(
  text: string,
  files: Record<string, string> = {},
  env: Record<string, string> = {},
) {
  const bytes = (p: string) => {
    const name = p.replace(/^\/plans\//, "");
    return name in files ? new TextEncoder().encode(files[name]) : undefined;
  };
  const ctx: PlanContext = {
    env: (name) => env[name],
    fileSize: (p) => bytes(p)?.length,
    readFile: (p, max) => {
      const b = bytes(p);
      return b && b.length <= max ? b : undefined;
    },
    planDir: "/plans",
    requireEnv: true,
  };
  return parsePlan("t.yaml", new TextEncoder().encode(text), ctx);
}

const errors = (p: PlanParse) =>
  p.issues.filter((i) => i.severity === "error").map((i) => `${i.line}:${i.col} ${i.message}`);
const hints = (p: PlanParse) => p.issues.map((i) => i.hint ?? "");

const USERS = "id,name\n1,ann\n2,bob\n3,cy\n";

function plan(request: string, sections = "") {
  return `name: t
target: http://127.0.0.1:8080
${sections}requests:
  - ${request}
load:
  stages: [{ rate: 10/s, duration: 1s }]
`;
}

const DATA = "data:\n  users: { file: users.csv }\nvars:\n  id: uuid\n  qty: { int: [1, 20] }\n";

Deno.test("a templated path, header and body become parts; the URL prints as written", () => {
  const p = parseWith(
    plan(
      '{ name: u, method: POST, path: "/users/{{users.id}}?q={{qty}}", headers: { X-Id: "{{id}}" }, body: { json: { n: "{{qty}}", s: "x{{users.name}}" } } }',
      DATA,
    ),
    { "users.csv": USERS },
  );
  assert.deepEqual(errors(p), []);
  const r = p.plan!.requests[0];
  assert.equal(r.url, "http://127.0.0.1:8080/users/{{users.id}}?q={{qty}}");
  assert.equal(r.label, "u");
  assert.deepEqual(r.template!.target, [
    { kind: "text", text: "/users/" },
    { kind: "ref", ref: { kind: "column", source: "users", column: "id" }, encoding: "percent" },
    { kind: "text", text: "?q=" },
    { kind: "ref", ref: { kind: "var", name: "qty" }, encoding: "percent" },
  ]);
  assert.deepEqual(r.template!.body, [
    { kind: "text", text: '{"n":' },
    { kind: "ref", ref: { kind: "var", name: "qty" }, encoding: "json_value" },
    { kind: "text", text: ',"s":"x' },
    {
      kind: "ref",
      ref: { kind: "column", source: "users", column: "name" },
      encoding: "json_string",
    },
    { kind: "text", text: '"}' },
  ]);
  assert.equal(p.plan!.data![0].rows, 3);
  assert.deepEqual(p.plan!.vars!.map((v) => v.text), ["uuid", "int [1, 20]"]);
});

Deno.test("an unknown source or column is located at the template, with a did-you-mean", () => {
  const p = parseWith(plan('{ path: "/u/{{user.id}}/{{users.nmae}}" }', DATA), {
    "users.csv": USERS,
  });
  assert.deepEqual(errors(p), [
    "9:17 `user` in `{{user.id}}` is not a data source of this plan",
    "9:29 data source `users` has no column `nmae`",
  ]);
  assert.deepEqual(hints(p).slice(0, 2), [
    "did you mean `{{users.id}}`?",
    "did you mean `{{users.name}}`?",
  ]);
});

Deno.test("an unknown source names the plan's own: the only one, or the one with that column", () => {
  const posts = "data:\n  posts: { file: posts.csv }\n";
  const one = parseWith(plan('{ path: "/p/{{rows.id}}" }', posts), { "posts.csv": USERS });
  assert.deepEqual(errors(one), ["6:17 `rows` in `{{rows.id}}` is not a data source of this plan"]);
  assert.deepEqual(hints(one), ["did you mean `{{posts.id}}`?"]);
  const two = parseWith(
    plan('{ path: "/p/{{rows.title}}" }', `${posts}  users: { file: users.csv }\n`),
    { "posts.csv": "id,title\n1,a\n", "users.csv": USERS },
  );
  assert.deepEqual(hints(two), ["did you mean `{{posts.title}}`?"]);
  const none = parseWith(plan('{ path: "/p/{{rows.id}}" }'));
  assert.match(
    hints(none)[0],
    /declare it under `data`, e\.g\. `rows: \{ file: data\/rows\.csv \}`/,
  );
});

Deno.test("a template is never sent literally: unknown ${…} and {{…}} are errors in path, header and body", () => {
  const p = parseWith(
    plan('{ path: "/o/${uuid}", headers: { X-A: "{{nope}}" }, body: "id={{ordr}} {{open" }', DATA),
    { "users.csv": USERS },
  );
  const e = errors(p);
  assert.equal(e.length, 4, e.join("\n"));
  assert.match(e[0], /`\$\{uuid\}` is not a known substitution/);
  assert.match(e[1], /`nope` is neither a var nor a data source/);
  assert.match(e[2], /`ordr` is neither a var nor a data source/);
  assert.match(e[3], /`\{\{` is not closed/);
});

Deno.test('{{"{{"}} writes a literal {{, and such a body is sent unescaped', () => {
  const p = parseWith(plan('{ path: /, method: POST, body: "a {{\\"{{\\"}} b" }'));
  assert.deepEqual(errors(p), []);
  assert.deepEqual(p.plan!.requests[0].template!.body, [{ kind: "text", text: "a {{ b" }]);
});

Deno.test("data file problems are located errors: missing, outside the folder, empty, malformed row as file:line", () => {
  const missing = parseWith(plan('{ path: "/{{users.id}}" }', DATA));
  assert.deepEqual(errors(missing), [
    "4:18 data file `users.csv` does not exist or is not a regular file",
  ]);
  const outside = parseWith(
    plan('{ path: "/{{users.id}}" }', DATA.replace("users.csv", "../etc/users.csv")),
  );
  assert.match(errors(outside)[0], /lies outside the plan's folder/);
  const empty = parseWith(plan('{ path: "/{{users.id}}" }', DATA), { "users.csv": "" });
  assert.match(errors(empty)[0], /users\.csv:1: .*no rows/);
  const bad = parseWith(plan('{ path: "/{{users.id}}" }', DATA), {
    "users.csv": "id,name\n1,a\n2,b,c\n",
  });
  assert.deepEqual(errors(bad), ["4:18 users.csv:3: this row has 3 fields, the header has 2"]);
});

Deno.test("var specs out of range are located errors", () => {
  const p = parseWith(
    plan(
      '{ path: "/{{a}}{{b}}{{c}}{{d}}" }',
      "vars:\n  a: { int: [5, 1] }\n  b: { int: [1.5, 2] }\n  c: { choice: [] }\n  d: uuuid\n",
    ),
  );
  const e = errors(p);
  assert.equal(e.length, 4, "templates naming a var in error add no error of their own");
  assert.match(e[0], /^4:13 `int` of \[5, 1\]: min is above max/);
  assert.match(e[1], /must be a whole number/);
  assert.match(e[2], /`choice` takes a list of values/);
  assert.match(e[3], /`uuuid` is not a kind of var/);
});

Deno.test("a data value with a line break cannot go in a header", () => {
  const p = parseWith(plan('{ path: /, headers: { X-N: "{{users.name}}" } }', DATA), {
    "users.csv": 'id,name\n1,"a\nb"\n',
  });
  assert.match(errors(p)[0], /row 1 of `users\.csv` holds a line feed \(`\\n`\) in `name`/);
});

Deno.test("a data value or choice with ESC or DEL cannot go in a header: the row and column are named", () => {
  const p = parseWith(
    plan(
      '{ path: /, headers: { X-N: "{{users.name}}", X-R: "r={{region}}" } }',
      'data:\n  users: { file: users.csv }\nvars:\n  region: { choice: [eu, "u\\x7fs"] }\n',
    ),
    { "users.csv": 'id,name\n1,ann\n2,"b\u001b[2Jb"\n' },
  );
  assert.deepEqual(errors(p), [
    "8:32 row 2 of `users.csv` holds ESC (`\\u001b`) in `name`",
    '8:55 choice "u\\u007fs" of var `region` holds DEL (`\\u007f`)',
  ]);
  const hint = "a header value cannot hold it: clean the data, or send the value in the path " +
    "(percent-encoded) or the body";
  assert.deepEqual(hints(p).filter((h) => h !== ""), [hint, hint]);
});

Deno.test("a data value with CR LF in a path is sent percent-encoded: nothing reaches the head", async () => {
  const text = plan('{ path: "/u/{{users.name}}" }', "data:\n  users: { file: users.csv }\n");
  const files = { "users.csv": 'id,name\n1,"a\r\nX-Injected: 1"\n' };
  assert.deepEqual(errors(parseWith(text, files)), []);
  const run = await runOnRecorder(text, files);
  assert.equal(run.code, 0, run.err);
  assert.equal(run.requests.length, 10);
  for (const r of run.requests) {
    assert.equal(r.line, "GET /u/a%0D%0AX-Injected%3A%201 HTTP/1.1");
    assert.equal(headerOf(r, "X-Injected"), undefined);
  }
});

Deno.test("exhausted: error refuses a plan whose schedule needs more rows than the file holds", () => {
  const text = plan(
    '{ path: "/{{users.id}}" }',
    DATA.replace("users.csv }", "users.csv, exhausted: error }"),
  );
  const p = parseWith(text, { "users.csv": USERS });
  assert.deepEqual(errors(p), []);
  const { demand, issues } = dataExhaustion(p.plan!);
  assert.equal(demand[0].draws, 10);
  assert.deepEqual(issues.map((i) => `${i.line}:${i.col} ${i.message}`), [
    "4:3 the schedule takes 10 rows of `users`, but `users.csv` holds 3 (`exhausted: error`)",
  ]);
  const wraps = parseWith(plan('{ path: "/{{users.id}}" }', DATA), { "users.csv": USERS });
  assert.deepEqual(dataExhaustion(wraps.plan!).issues, []);
});

Deno.test("a request without templates is unchanged: no template, the URL normalised as before", () => {
  const p = parseWith(plan("{ path: /a b }"));
  assert.equal(p.plan!.requests[0].template, undefined);
  assert.equal(p.plan!.requests[0].url, "http://127.0.0.1:8080/a b");
});

Deno.test("a var or data source must have a name a template can write, and not both at once", () => {
  const p = parseWith(
    plan(
      '{ path: "/{{x}}" }',
      'data:\n  my-users: users.csv\n  x: users.csv\nvars:\n  "2x": uuid\n  x: counter\n',
    ),
    { "users.csv": USERS },
  );
  assert.deepEqual(errors(p), [
    "4:3 `my-users` is not a data source name",
    "5:3 `x` is both a var and a data source",
    "7:3 `2x` is not a var name",
  ]);
});

const shape = (parts: readonly TemplatePart[]) =>
  parts.map((p) =>
    p.kind === "ref" || p.kind === "capture" ? p.encoding : p.kind === "text" ? p.text : p.template
  );

Deno.test("a file body opts in with template: true: a .json file is a JSON body, another file text", () => {
  const files = {
    "users.csv": USERS,
    "order.json": '{ "user": "{{users.id}}", "qty": "{{qty}}", "note": "for {{users.name}}" }',
    "order.txt": "user={{users.id}}&qty={{qty}}",
  };
  const json = parseWith(
    plan("{ method: POST, path: /o, body: { file: order.json, template: true } }", DATA),
    files,
  );
  assert.deepEqual(errors(json), []);
  assert.deepEqual(
    shape(json.plan!.requests[0].template!.body!),
    [
      '{"user":',
      "json_value",
      ',"qty":',
      "json_value",
      ',"note":"for ',
      "json_string",
      '"}',
    ],
  );
  const text = parseWith(
    plan("{ method: POST, path: /o, body: { file: order.txt, template: true } }", DATA),
    files,
  );
  assert.deepEqual(
    shape(text.plan!.requests[0].template!.body!),
    [
      "user=",
      "raw",
      "&qty=",
      "raw",
    ],
  );
  const plain = parseWith(
    plan("{ method: POST, path: /o, body: { file: order.txt } }", DATA),
    files,
  );
  assert.equal(
    plain.plan!.requests[0].template,
    undefined,
    "without template: true, sent as it is",
  );
  const misplaced = parseWith(
    plan('{ method: POST, path: /o, body: { text: "x", template: true } }'),
  );
  assert.match(errors(misplaced)[0], /`template` goes with a `file` body/);
  const broken = parseWith(
    plan("{ method: POST, path: /o, body: { file: order.json, template: true } }", DATA),
    {
      ...files,
      "order.json": '{ "user": ',
    },
  );
  assert.match(errors(broken)[0], /`order\.json` is not JSON/);
});
