import assert from "node:assert/strict";
import { AB_CLIENT_SCRIPT, abClient } from "../../../reporters/browser/ab_html_client.ts";
import { CLIENT_SCRIPT, reportClient } from "../../../reporters/browser/html_client.ts";
import {
  SEARCH_CLIENT_SCRIPT,
  searchClient,
} from "../../../reporters/browser/search_html_client.ts";

Deno.test("the browser script is reportClient's source as plain JavaScript, called at once", () => {
  // Parses as a browser would (a TypeScript annotation left in would be a SyntaxError).
  assert.doesNotThrow(() => new Function(CLIENT_SCRIPT));
  assert.ok(CLIENT_SCRIPT.startsWith("(function reportClient()"), CLIENT_SCRIPT.slice(0, 40));
  assert.ok(CLIENT_SCRIPT.trimEnd().endsWith("})();"));
  assert.equal(CLIENT_SCRIPT, `(${reportClient.toString()})();\n`);
  assert.ok(!/:\s*(ChartData|PageElement|TooltipItem|ScaleLike)\b/.test(CLIENT_SCRIPT));
});

Deno.test("the search page's script is searchClient's source as plain JavaScript, called at once", () => {
  assert.doesNotThrow(() => new Function(SEARCH_CLIENT_SCRIPT));
  assert.ok(SEARCH_CLIENT_SCRIPT.startsWith("(function searchClient()"));
  assert.equal(SEARCH_CLIENT_SCRIPT, `(${searchClient.toString()})();\n`);
  assert.ok(
    !/:\s*(SearchChartData|SearchPoint|ChartLike|TooltipItem)\b/.test(SEARCH_CLIENT_SCRIPT),
  );
});

Deno.test("the A/B page's script is abClient's source as plain JavaScript, called at once", () => {
  assert.doesNotThrow(() => new Function(AB_CLIENT_SCRIPT));
  assert.ok(AB_CLIENT_SCRIPT.startsWith("(function abClient()"));
  assert.equal(AB_CLIENT_SCRIPT, `(${abClient.toString()})();\n`);
  assert.ok(!/:\s*(AbChartData|Dataset|TooltipItem)\b/.test(AB_CLIENT_SCRIPT));
});
