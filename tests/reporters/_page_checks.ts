/**
 * What the report pages' tests check of every page: its script elements read back, and that it
 * loads nothing from the network (no remote `src` or `href`, no stylesheet link or import, no
 * script with a `src`), under a Content-Security-Policy that allows only its inline scripts, by
 * hash, chart.js first.
 *
 * @module
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

/** The contents of every `<script …>…</script>` element, with its attributes. */
export function pageScripts(html: string): Array<{ attributes: string; text: string }> {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({
    attributes: m[1],
    text: m[2],
  }));
}

/**
 * Asserts the page is self-contained under its CSP (two inline scripts: chart.js, then the
 * page's own), and returns the inline scripts' texts.
 */
export function assertSelfContained(html: string): string[] {
  assert.equal(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i.exec(html), null);
  assert.equal(/<link\b|@import|url\(\s*["']?(?:https?:)?\/\//i.exec(html), null);
  const scripts = pageScripts(html);
  assert.ok(scripts.every((s) => !/\bsrc\s*=/.test(s.attributes)), "no script has a src");
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
  assert.match(csp, /default-src 'none'/);
  const inline = scripts.filter((s) => !s.attributes.includes("application/json"));
  assert.equal(inline.length, 2);
  for (const s of inline) {
    const hash = createHash("sha256").update(s.text).digest("base64");
    assert.ok(csp.includes(`'sha256-${hash}'`), "a script the CSP does not allow");
  }
  assert.ok(inline[0].text.includes("Chart.js v4.6.1"), "chart.js is inlined first");
  return inline.map((s) => s.text);
}
