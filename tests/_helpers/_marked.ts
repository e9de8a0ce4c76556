/**
 * The only importer of `marked`: a GitHub-flavoured Markdown renderer, used by tests to check
 * that the Markdown summary renders as tables, as GitHub shows it.
 *
 * @module
 */
import { marked } from "npm:marked@18.2.1";

/**
 * GitHub-flavoured Markdown to HTML.
 *
 * @example
 * ```ts
 * import { gfmToHtml } from "./_marked.ts";
 * gfmToHtml("| a |\n| --- |\n| 1 |"); // "<table>..."
 * ```
 */
export function gfmToHtml(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false }) as string;
}
