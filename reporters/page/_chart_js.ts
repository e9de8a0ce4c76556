/**
 * The one file that reads chart.js: the text of its UMD bundle, for inlining into the HTML report
 * (a report must open from disk with no network request).
 *
 * The bundle is read from the installed package: `import.meta.resolve("chart.js")` gives the file
 * URL of the package's ESM entry (`dist/chart.js`, in Deno's npm cache or in `node_modules`), and
 * `dist/chart.umd.min.js` lies beside it. That file is not in the package's `exports`, so neither
 * an import nor `require.resolve` reaches it. The dynamic import below is never called: it puts
 * chart.js into this module's graph, so `deno run` and `deno test` fetch the package even when
 * `deno install` did not run first (`import.meta.resolve` alone does not).
 *
 * @module
 */
import { safeInlineScript } from "./html_escape.ts";

/**
 * The pinned chart.js version (deno.json "imports", and the specifiers below); the bundle's banner
 * must name it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CHART_JS_VERSION } from "./_chart_js.ts";
 * assert.equal(CHART_JS_VERSION, "4.6.1");
 * ```
 */
export const CHART_JS_VERSION = "4.6.1";

const BUNDLE_FILE = "chart.umd.min.js";
let cached: string | undefined;

/**
 * The chart.js UMD bundle (it defines the global `Chart` with every chart type registered), made
 * safe to place inside a `<script>` element: no `</script`, no `<!--`, no source-map comment.
 * Read once per process; needs read permission on the npm cache.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartJsBundle } from "./_chart_js.ts";
 * const html = `<script>${chartJsBundle()}</script>`;
 * assert.ok(html.includes("Chart"));
 * ```
 */
export function chartJsBundle(): string {
  if (cached !== undefined) return cached;
  const entry = import.meta.resolve("npm:chart.js@4.6.1");
  if (!entry.startsWith("file:")) {
    throw new Error(`chart.js resolved to ${entry}, not a local file: run \`deno install\``);
  }
  const url = new URL(BUNDLE_FILE, entry);
  let text: string;
  try {
    text = Deno.readTextFileSync(url);
  } catch (cause) {
    throw new Error(
      `cannot read the chart.js bundle at ${url.pathname}: run \`deno install\` (${cause})`,
      { cause },
    );
  }
  if (!text.slice(0, 200).includes(`Chart.js v${CHART_JS_VERSION}`)) {
    throw new Error(`${url.pathname} is not the chart.js ${CHART_JS_VERSION} bundle`);
  }
  cached = safeInlineScript(text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n"));
  return cached;
}

// Never called: keeps chart.js in the module graph so Deno fetches it (see the module doc).
const _inGraph = () => import("npm:chart.js@4.6.1");
