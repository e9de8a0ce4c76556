import assert from "node:assert/strict";
import { EXIT_CODES } from "../../../../runner/model/exit_codes.ts";
import { MINIMAL_PLAN, parseText } from "../../../_helpers/plan_fixtures.ts";
import { parseHttpUrl } from "../../../../runner/plan/requests/validate_url.ts";
import { located, runOnRecorder } from "../../../_helpers/wire_fixtures.ts";

Deno.test("a path with CR LF is a located error, not rewritten into another request-target", () => {
  const text = MINIMAL_PLAN.replace(
    "  - path: /\n",
    '  - path: "/x\\r\\nX-Injected: 1\\r\\nGET /smuggle"\n',
  );
  const p = parseText(text);
  assert.equal(p.plan, undefined);
  assert.deepEqual(located(p), [
    "4:11 a path cannot hold a carriage return (`\\r`) | remove it, or percent-encode it (`%0D`)",
  ]);
});

Deno.test("a url, a target and a tab or DEL in a path are refused the same way", () => {
  const url = parseText(MINIMAL_PLAN.replace(
    "  - path: /\n",
    '  - url: "http://127.0.0.1:8080/a\\nb"\n',
  ));
  assert.deepEqual(located(url), [
    "4:10 a URL cannot hold a line feed (`\\n`) | remove it, or percent-encode it (`%0A`)",
  ]);
  const target = parseText(
    MINIMAL_PLAN.replace("target: http://127.0.0.1:8080", 'target: "http://127.0.0.1:8080\\t"'),
  );
  assert.equal(
    located(target)[0],
    "2:9 a URL cannot hold a tab (`\\t`) | remove it, or percent-encode it (`%09`)",
  );
  const del = parseText(MINIMAL_PLAN.replace("  - path: /\n", '  - path: "/a\\x7f"\n'));
  assert.deepEqual(located(del), [
    "4:11 a path cannot hold DEL (`\\u007f`) | remove it, or percent-encode it (`%7F`)",
  ]);
});

Deno.test("a control character written as a template's quoted text is refused in a path too", () => {
  const p = parseText(MINIMAL_PLAN.replace("  - path: /\n", `  - path: '/a{{"\\r\\n"}}b'\n`));
  assert.deepEqual(located(p), [
    "4:11 a path cannot hold a carriage return (`\\r`) | remove it, or percent-encode it (`%0D`)",
  ]);
});

Deno.test("a drawn value or secret in a path is percent-encoded, so it may hold anything", () => {
  const p = parseText(
    MINIMAL_PLAN.replace("  - path: /\n", '  - path: "/a/${env.X}"\n'),
    { env: { X: "b\r\nc" } },
  );
  assert.deepEqual(located(p), []);
  const [part] = p.plan!.requests[0].template!.target.filter((t) => t.kind === "secret");
  assert.equal(part.kind === "secret" && part.value, "b%0D%0Ac");
});

Deno.test("tailgate run on a plan with CR LF in its path sends nothing and exits 2", async () => {
  const run = await runOnRecorder(
    MINIMAL_PLAN.replace("  - path: /\n", '  - path: "/x\\r\\nX-Injected: 1\\r\\nGET /smuggle"\n'),
  );
  assert.equal(run.code, EXIT_CODES.usage, run.err);
  assert.match(run.err, /plan\.yaml:4:11: .*a path cannot hold a carriage return/);
  assert.deepEqual(run.requests, []);
});

Deno.test("parseHttpUrl() takes no URL holding a control character (so neither does --target)", () => {
  assert.equal(parseHttpUrl("http://127.0.0.1:8080/a")?.pathname, "/a");
  assert.equal(parseHttpUrl("http://127.0.0.1:8080/a\r\nX-Injected: 1"), undefined);
  assert.equal(parseHttpUrl("http://127.0.0.1:8080\t"), undefined);
});
