/**
 * The files of `tailgate search`: `search.json`, `search.md` and `search.html`, each written
 * atomically and on its own, so one that cannot be written leaves the others.
 *
 * @module
 */
import type { SearchResult } from "../model/mod.ts";
import { renderSearchHtml, renderSearchMarkdown } from "../../reporters/mod.ts";
import { writeDocumentFiles } from "../../reporters/mod.ts";

/**
 * Writes `search.json`, `search.md` and `search.html` in `outDir`, each on its own: those written,
 * and those not, naming the cause.
 */
export function writeSearchFiles(
  outDir: string,
  result: SearchResult,
): Promise<{ written: string[]; ioFailures: string[] }> {
  return writeDocumentFiles(outDir, "search", result, {
    markdown: renderSearchMarkdown,
    html: renderSearchHtml,
  });
}
