import assert from "node:assert/strict";
import {
  escapeHtml,
  jsonForScript,
  safeInlineScript,
} from "../../../reporters/page/html_escape.ts";

Deno.test("escapeHtml() escapes &, <, >, double and single quotes", () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&amp;</a>`),
    "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
  );
  assert.equal(escapeHtml(42), "42");
});

Deno.test("jsonForScript() leaves no <, >, & or line separator, and parses back to the value", () => {
  const value = { name: "</script><!--<script>\u2028\u2029&amp;", list: [1, "a>b"] };
  const json = jsonForScript(value);
  assert.equal(/[<>&\u2028\u2029]/.exec(json), null);
  assert.deepEqual(JSON.parse(json), value);
});

Deno.test("safeInlineScript() removes </script and <!-- and keeps what the script means", () => {
  const source = `["a</script>b", 'c</SCRIPT >', "<!-- d", /x<!--y/.test("x<!--y")]`;
  const safe = safeInlineScript(source);
  assert.equal(/<\/script|<!--/i.exec(safe), null);
  assert.deepEqual(
    new Function(`return ${safe}`)(),
    ["a</script>b", "c</SCRIPT >", "<!-- d", true],
  );
  assert.equal(safeInlineScript(safe), safe, "escaping twice changes nothing");
});
