/**
 * The files of `tailgate search`: `search.json`, `search.md` and `search.html`, each written
 * atomically and on its own, so one that cannot be written leaves the others.
 *
 * @module
 */
import { join } from "node:path";
import type { SearchResult } from "../../model/search_result.ts";
import { renderSearchHtml, renderSearchMarkdown } from "../../../reporters/search/mod.ts";
import { type FileToWrite, writeEach } from "../../../reporters/write_reports.ts";

/**
 * Writes `search.json`, `search.md` and `search.html` in `outDir`, each on its own: those written,
 * and those not, naming the cause.
 */
export async function writeSearchFiles(
  outDir: string,
  result: SearchResult,
): Promise<{ written: string[]; ioFailures: string[] }> {
  const file = (name: string, render: () => string): FileToWrite => ({
    what: name,
    path: join(outDir, name),
    render,
  });
  const files = [
    file("search.json", () => JSON.stringify(result, null, 1) + "\n"),
    file("search.md", () => renderSearchMarkdown(result)),
    file("search.html", () => renderSearchHtml(result)),
  ];
  const each = await writeEach(files);
  const written = files.filter((_, i) => each.written[i]).map((f) => f.path);
  return { written, ioFailures: each.errors };
}
