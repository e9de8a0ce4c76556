import assert from "node:assert/strict";
import { CHART_JS_VERSION, chartJsBundle } from "../../../reporters/page/_chart_js.ts";

Deno.test("chartJsBundle() is the pinned chart.js UMD bundle, safe inside a script element", () => {
  const bundle = chartJsBundle();
  assert.ok(bundle.slice(0, 200).includes(`Chart.js v${CHART_JS_VERSION}`));
  assert.equal(/<\/script|<!--|sourceMappingURL/i.exec(bundle), null);
  assert.ok(bundle.length > 100_000, "the whole bundle");
});

Deno.test("chartJsBundle() runs as a UMD module and defines Chart at the pinned version", () => {
  const module = { exports: {} as { version?: string } };
  new Function("module", "exports", chartJsBundle())(module, module.exports);
  assert.equal(typeof module.exports, "function");
  assert.equal(module.exports.version, CHART_JS_VERSION);
});
