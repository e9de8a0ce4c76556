/**
 * The files of `tailgate history`: `history.json`, `history.md` and `history.html`, each written
 * atomically and on its own, so one that cannot be written leaves the others.
 *
 * @module
 */
import type { HistoryReport } from "../../model/mod.ts";
import { historyHtml, historyMarkdown } from "../../../reporters/mod.ts";
import { writeDocumentFiles } from "../../../reporters/mod.ts";

/**
 * Writes `history.json`, `history.md` and `history.html` in `outDir`, each on its own: those
 * written, and those not, naming the cause.
 */
export function writeHistoryFiles(
  outDir: string,
  report: HistoryReport,
): Promise<{ written: string[]; ioFailures: string[] }> {
  return writeDocumentFiles(outDir, "history", report, {
    markdown: historyMarkdown,
    html: historyHtml,
  });
}
