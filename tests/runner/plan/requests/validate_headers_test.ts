import assert from "node:assert/strict";
import { EXIT_CODES } from "../../../../runner/model/exit_codes.ts";
import { MINIMAL_PLAN, parseText } from "../../../_helpers/plan_fixtures.ts";
import { located, runOnRecorder } from "../../../_helpers/wire_fixtures.ts";

/** MINIMAL_PLAN whose request has these header lines (YAML, indented under `headers:`). */
const withHeaders = (...lines: string[]) =>
  MINIMAL_PLAN.replace(
    "  - path: /\n",
    `  - path: /\n    headers:\n${lines.map((l) => `      ${l}\n`).join("")}`,
  );

const FIELD_VALUE_HINT = "a header value is visible characters, spaces and tabs (RFC 9110): " +
  "remove it";

Deno.test("ESC, DEL, VT and FF in a header value are located errors; a tab is allowed", () => {
  const p = parseText(withHeaders(
    'X-Esc: "a\\e[2Jb"',
    'X-Del: "a\\x7fb"',
    'X-Vt: "a\\vb"',
    'X-Ff: "a\\fb"',
    'X-Tab: "a\\tb"',
  ));
  assert.deepEqual(located(p), [
    `6:14 a header value cannot hold ESC (\`\\u001b\`) | ${FIELD_VALUE_HINT}`,
    `7:14 a header value cannot hold DEL (\`\\u007f\`) | ${FIELD_VALUE_HINT}`,
    `8:13 a header value cannot hold a vertical tab (\`\\u000b\`) | ${FIELD_VALUE_HINT}`,
    `9:13 a header value cannot hold a form feed (\`\\u000c\`) | ${FIELD_VALUE_HINT}`,
  ]);
});

Deno.test("CR, LF and NUL in a header value stay errors, with the same rule and hint", () => {
  const p = parseText(withHeaders('X-A: "a\\r\\nX-Injected: 1"', 'X-B: "a\\0"'));
  assert.deepEqual(located(p), [
    `6:12 a header value cannot hold a carriage return (\`\\r\`) | ${FIELD_VALUE_HINT}`,
    `7:12 a header value cannot hold NUL (\`\\u0000\`) | ${FIELD_VALUE_HINT}`,
  ]);
});

Deno.test("an ${env.X} value holding ESC is refused like a written one, its value not shown", () => {
  const p = parseText(withHeaders('Authorization: "Bearer ${env.TOKEN}"'), {
    env: { TOKEN: "abc\u001b]0;pwned\u0007" },
  });
  assert.deepEqual(located(p), [
    `6:22 a header value cannot hold ESC (\`\\u001b\`) | ${FIELD_VALUE_HINT}`,
  ]);
  assert.ok(!JSON.stringify(p.issues).includes("pwned"));
});

Deno.test("Transfer-Encoding, Content-Length and Connection are tailgate's: located errors", () => {
  const p = parseText(withHeaders(
    "Transfer-Encoding: chunked",
    "content-length: 40",
    "Connection: close",
    "Host: api.example.test",
  ));
  const hint = "remove it: tailgate sends `Content-Length` (the body's true length) and keeps " +
    "its connections open";
  assert.deepEqual(located(p), [
    `6:7 \`Transfer-Encoding\` frames the request, which tailgate does itself | ${hint}`,
    `7:7 \`content-length\` frames the request, which tailgate does itself | ${hint}`,
    `8:7 \`Connection\` frames the request, which tailgate does itself | ${hint}`,
  ]);
  const defaults = parseText(
    MINIMAL_PLAN.replace("requests:", "defaults:\n  headers: { Keep-Alive: timeout=5 }\nrequests:"),
  );
  assert.deepEqual(located(defaults).map((e) => e.split(" |")[0]), [
    "4:14 `Keep-Alive` frames the request, which tailgate does itself",
  ]);
});

Deno.test("a header named twice in one mapping (any case) is refused: both would be sent", () => {
  const p = parseText(withHeaders("Host: a.example.test", "host: b.example.test"));
  assert.deepEqual(located(p), [
    "7:7 `host` is named twice here (`Host` on line 6) | keep one",
  ]);
});

Deno.test("tailgate run on a plan with raw controls or its own framing sends nothing", async () => {
  const run = await runOnRecorder(
    withHeaders('X-Esc: "\\e]0;title\\a"', "Transfer-Encoding: chunked"),
  );
  assert.equal(run.code, EXIT_CODES.usage, run.err);
  assert.match(run.err, /plan\.yaml:6:14: error: a header value cannot hold ESC/);
  assert.match(run.err, /plan\.yaml:7:7: error: `Transfer-Encoding` frames the request/);
  assert.deepEqual(run.requests, []);
});
