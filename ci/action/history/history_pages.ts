/**
 * The history pages a `baseline: branch` job publishes beside the histories: each plan's
 * `history.html` and `history.json` in the branch's `docs/` folder (the folder GitHub Pages serves
 * from a branch), named by its history file (`shop.json`'s as `docs/shop.html`), with an
 * `index.html` that is the page itself when there is one plan and lists the pages when there are
 * more, and a `.nojekyll` so that Pages serves the files as they are.
 *
 * @module
 */
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { readHistoryReport } from "./history_runs.ts";

/** The branch's folder of pages: one of the two GitHub Pages serves from a branch. */
export const PAGES_FOLDER = "docs";

/** One plan's page, as the job made it. */
export interface HistoryPage {
  /** The name of its history file without `.json` (`shop`): the page is `<name>.html`. */
  name: string;
  /** The page's file (`<out>/history/<slug>/history.html`). */
  html: string;
  /** Its document (`history.json` beside it). */
  json: string;
}

/**
 * The pages under `historyDir` (`<out>/history/`): each `<slug>/history.html` with its
 * `history.json`, named by the history file the document says it read. A folder without both
 * files, or with a document that does not read, has no page.
 */
export async function historyPages(historyDir: string): Promise<HistoryPage[]> {
  const pages: HistoryPage[] = [];
  let slugs: string[];
  try {
    slugs = [...Deno.readDirSync(historyDir)].filter((e) => e.isDirectory).map((e) => e.name);
  } catch {
    return [];
  }
  for (const slug of slugs.sort()) {
    const html = join(historyDir, slug, "history.html");
    const json = join(historyDir, slug, "history.json");
    if (!existsSync(html)) continue;
    const report = await readHistoryReport(json);
    const source = report.ok ? report.value.plans[0]?.source : undefined;
    const name = source === undefined ? "" : basename(source).replace(/\.json$/, "");
    // A history file's name is a plan's slug; anything else would not make a tree entry.
    if (!/^[a-z0-9][a-z0-9._-]*$/i.test(name)) continue;
    pages.push({ name, html, json });
  }
  return pages;
}

/** Writes a blob from text (`git hash-object -w --stdin`) and returns its id. */
export type WriteBlob = (text: string) => Promise<string>;

/**
 * The `docs/` folder's entries (`mktree` lines' "mode type id" by name) once `pages` (file name to
 * blob id) are put into `existing`: the other plans' pages are kept, `index.html` is the only
 * page's blob or a list of the pages, and `.nojekyll` is there.
 */
export async function pagesEntries(
  existing: ReadonlyMap<string, string>,
  pages: ReadonlyMap<string, string>,
  writeBlob: WriteBlob,
): Promise<Map<string, string>> {
  const entries = new Map(existing);
  for (const [name, blob] of pages) entries.set(name, `100644 blob ${blob}`);
  const htmls = [...entries.keys()].filter((n) => n.endsWith(".html") && n !== "index.html").sort();
  const index = htmls.length === 1
    ? entries.get(htmls[0])!
    : `100644 blob ${await writeBlob(indexPage(htmls.map((n) => n.replace(/\.html$/, ""))))}`;
  entries.set("index.html", index);
  entries.set(".nojekyll", `100644 blob ${await writeBlob("")}`);
  return entries;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The list of the plans' history pages: no script, nothing fetched (its CSP allows only its own
 * inline style).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { indexPage } from "./history_pages.ts";
 * assert.match(indexPage(["cart", "shop"]), /<a href="shop\.html">shop<\/a>/);
 * ```
 */
export function indexPage(names: readonly string[]): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
  const items = names.map((n) =>
    `<li><a href="${esc(encodeURIComponent(n))}.html">${esc(n)}</a></li>`
  );
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>tailgate history</title>",
    "<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:40rem}</style>",
    "</head>",
    "<body>",
    "<h1>tailgate history</h1>",
    `<p>Each plan's runs over the commits, and the change points found in them.</p>`,
    "<ul>",
    ...items,
    "</ul>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
