import assert from "node:assert/strict";
import { problemText } from "../../runner/model/result.ts";
import {
  parseReportFormats,
  REPORT_FILES,
  REPORT_FORMATS,
} from "../../reporters/report_formats.ts";

Deno.test("parseReportFormats() keeps the order given, drops repeats and reads aliases", () => {
  assert.deepEqual(parseReportFormats("md, html,markdown"), { ok: true, value: ["md", "html"] });
  assert.deepEqual(parseReportFormats("all"), { ok: true, value: [...REPORT_FORMATS] });
  assert.deepEqual(parseReportFormats("xml"), { ok: true, value: ["junit"] });
});

Deno.test("parseReportFormats() names an unknown format and the known ones", () => {
  const bad = parseReportFormats("html,pdf");
  assert.ok(!bad.ok);
  assert.match(
    problemText(bad.problems[0]),
    /unknown report format `pdf`; choose from json, html, junit, md, hlog/,
  );
  assert.ok(!parseReportFormats(" , ").ok);
});

Deno.test("every format has its own file name", () => {
  const names = REPORT_FORMATS.map((f) => REPORT_FILES[f]);
  assert.equal(new Set(names).size, names.length);
});
