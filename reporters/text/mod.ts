/**
 * The text formats: the Markdown summary (`report.md`, a CI job summary) and the terminal summary
 * printed after a run, with what they are built of: Markdown escaping and tables, and plain-text
 * tables measured in terminal columns.
 *
 * @module
 */
export { MARKDOWN_MAX_BYTES, type MarkdownOptions, renderMarkdown } from "./markdown.ts";
export { markdownText } from "./markdown_escape.ts";
export { type MarkdownAlign, markdownTable, markdownUrl } from "./markdown_table.ts";
export {
  type ColorContext,
  renderTerminal,
  shouldUseColor,
  type TerminalOptions,
} from "./terminal.ts";
export { displayWidth, type TextAlign, type TextCell, textTable } from "./text_table.ts";
