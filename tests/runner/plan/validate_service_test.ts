import assert from "node:assert/strict";
import { join } from "node:path";
import { parsePlanText } from "../../../runner/plan/load_plan.ts";
import type { PlanIssue } from "../../../runner/plan/types.ts";

const HEAD = `name: s
target: http://127.0.0.1:3917
requests: [{ path: /posts }]
load: { stages: [{ rate: 10/s, duration: 1s }] }
`;

/** The plan `HEAD` + `tail`, parsed as the file `file`; the issues of `service` (and the top). */
function parse(
  tail: string,
  options: { file?: string; env?: Record<string, string>; requireEnv?: boolean } = {},
) {
  const parsed = parsePlanText(HEAD + tail, {
    ...(options.file ? { file: options.file } : {}),
    env: (name) => options.env?.[name],
    requireEnv: options.requireEnv ?? true,
  });
  return { plan: parsed.plan, issues: parsed.issues };
}

/** `line:col path: message (hint)` of each issue, to match. */
function located(issues: PlanIssue[]): string[] {
  return issues.map((i) =>
    `${i.line}:${i.col} ${i.severity} ${i.path}: ${i.message}${i.hint ? ` (${i.hint})` : ""}`
  );
}

Deno.test("service: the json-server example reads as the command, its ready URL and timeout", () => {
  const { plan, issues } = parse(
    'service: { start: "json-server db.json -p 3917", ready: "http://127.0.0.1:3917/health", timeout: 30s }\n',
  );
  assert.deepEqual(issues, []);
  assert.deepEqual(plan?.service, {
    command: "json-server db.json -p 3917",
    ready: { url: "http://127.0.0.1:3917/health" },
    readyTimeoutMs: 30_000,
    env: {},
    cwd: ".",
    line: 5,
  });
});

Deno.test("service: a port, its environment (a secret from ${env.X}), its folder beside the plan", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "api"));
    const { plan, issues } = parse(
      `service:
  start: ./serve --db db.json
  ready: 3917
  cwd: api
  env:
    PORT: 3917
    DEBUG: false
    DB_URL: "postgres://app:\${env.DB_PASSWORD}@127.0.0.1/app"
`,
      { file: join(dir, "plan.yaml"), env: { DB_PASSWORD: "s3cret" } },
    );
    assert.deepEqual(issues, []);
    assert.deepEqual(plan?.service, {
      command: "./serve --db db.json",
      ready: { port: 3917 },
      readyTimeoutMs: 60_000,
      env: { PORT: "3917", DEBUG: "false", DB_URL: "postgres://app:s3cret@127.0.0.1/app" },
      cwd: join(dir, "api"),
      line: 6,
    });
    assert.deepEqual(plan?.secretValues, ["s3cret"], "a value read from the environment is secret");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("service: every problem is located, with its fix", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { plan, issues } = parse(
      `service:
  strat: npm start
  ready: localhost:3917/health
  timeout: 30
  cwd: nowhere
  env:
    9LIVES: x
    LIST: [a, b]
    TOKEN: "\${env.MISSING_TOKEN}"
    HOST: "{{host}}"
`,
      { file: join(dir, "plan.yaml") },
    );
    assert.equal(plan, undefined);
    const at = located(issues);
    const expect = [
      /^6:3 error service\.strat: unknown key `strat` in `service` \(did you mean `start`\?\)$/,
      /^7:10 error service\.ready: `localhost:3917\/health` is neither an http\(s\) URL nor a port \(write `http:\/\/localhost:3917\/health`, or the port alone: `ready: 3917`\)$/,
      /^8:12 error service\.timeout: .*`30`.*\(.*`30s`/,
      /^9:8 error service\.cwd: the folder `nowhere` \(.*nowhere\) does not exist \(`cwd` is relative to the plan's folder\)$/,
      /^11:5 error service\.env\.9LIVES: `9LIVES` is not an environment variable name \(letters, digits and `_`, not starting with a digit\)$/,
      /^12:11 error service\.env\.LIST: `service\.env\.LIST` must be text/,
      /^13:13 error service\.env\.TOKEN: environment variable `MISSING_TOKEN` is not set/,
      /^14:12 error service\.env\.HOST: .*`host`/,
      /^6:3 error service: `service` needs `start` \(add e\.g\. `start: npm start`\)$/,
    ];
    for (const pattern of expect) {
      assert.ok(at.some((l) => pattern.test(l)), `${pattern}\n${at.join("\n")}`);
    }
    assert.equal(at.length, expect.length, at.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("service: a port out of range, a zero timeout, ${env.X} in the command, a command alone", () => {
  const at = located(
    parse(`service:
  start: "serve --token \${env.TOKEN}"
  ready: 70000
  timeout: 0s
`).issues,
  );
  assert.deepEqual(at, [
    "6:25 error service.start: the command reads `${env.TOKEN}`, which the shell cannot (write `$TOKEN`: the shell reads the environment itself)",
    "7:10 error service.ready: `service.ready` must be at most 65535, not 70000",
    "8:12 error service.timeout: `service.timeout` must be above zero",
  ]);
  assert.deepEqual(located(parse("service: npm start\n").issues), [
    '5:10 error service: `service` must be a mapping (write `service: { start: "npm start" }`)',
  ]);
});

Deno.test("service: its keys' other names get a did-you-mean; `start` at the top level belongs under it", () => {
  const synonyms = located(
    parse("service: { command: x, health: 3917, ready_timeout: 5s, workdir: ., environment: {} }\n")
      .issues,
  );
  assert.deepEqual(
    synonyms.map((l) => l.replace(/^\S+ \S+ /, "")).sort(),
    [
      "service.command: unknown key `command` in `service` (did you mean `start`?)",
      "service.health: unknown key `health` in `service` (did you mean `ready`?)",
      "service.ready_timeout: unknown key `ready_timeout` in `service` (did you mean `timeout`?)",
      "service.workdir: unknown key `workdir` in `service` (did you mean `cwd`?)",
      "service.environment: unknown key `environment` in `service` (did you mean `env`?)",
      "service: `service` needs `start` (add e.g. `start: npm start`)",
    ].sort(),
  );
  const top = located(parse("start: npm start\n").issues);
  assert.deepEqual(top, [
    '5:1 error start: unknown key `start` (the command that starts the service goes under `service`: `service: { start: "npm start" }`)',
  ]);
});

Deno.test("tailgate check's reading: an unset variable in the service's environment is a warning", () => {
  const { plan, issues } = parse('service: { start: x, env: { T: "${env.UNSET_T}" } }\n', {
    requireEnv: false,
  });
  assert.ok(plan);
  assert.deepEqual(issues.map((i) => [i.severity, i.path]), [["warning", "service.env.T"]]);
});
