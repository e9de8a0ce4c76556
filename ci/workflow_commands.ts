/**
 * GitHub Actions workflow commands and files: annotations (`::error file=…::message`) escaped by
 * the runner's rules, and step outputs in the multiline-safe `name<<DELIMITER` form of
 * `$GITHUB_OUTPUT`.
 *
 * @module
 */
import { printable } from "../runner/plan/mod.ts";

/**
 * Escapes a command's message: `%`, `\r` and `\n` become `%25`, `%0D` and `%0A`, so a message
 * keeps its lines and cannot end the command early.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeData } from "./workflow_commands.ts";
 * assert.equal(escapeData("100%\nok"), "100%25%0Aok");
 * ```
 */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/**
 * Escapes a command's property value: as {@linkcode escapeData}, and `:` and `,` (which separate
 * properties) become `%3A` and `%2C`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeProperty } from "./workflow_commands.ts";
 * assert.equal(escapeProperty("p99 < 5ms, at 1k/s: GET"), "p99 < 5ms%2C at 1k/s%3A GET");
 * ```
 */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** One annotation: where it points and what it says. */
export interface Annotation {
  level: "error" | "warning" | "notice";
  /** Path relative to the repository root (`$GITHUB_WORKSPACE`). */
  file?: string;
  line?: number;
  col?: number;
  title?: string;
  message: string;
}

/**
 * The workflow command that shows `annotation` on the run and, with a file and line, on the diff.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatAnnotation } from "./workflow_commands.ts";
 * assert.equal(formatAnnotation({ level: "error", file: "plans/a.yaml", line: 12, title: "p99 < 5ms",
 *   message: "p99 7ms" }), "::error file=plans/a.yaml,line=12,title=p99 < 5ms::p99 7ms");
 * ```
 */
export function formatAnnotation(annotation: Annotation): string {
  const properties = [
    annotation.file === undefined ? undefined : `file=${escapeProperty(annotation.file)}`,
    annotation.line === undefined ? undefined : `line=${annotation.line}`,
    annotation.col === undefined ? undefined : `col=${annotation.col}`,
    annotation.title === undefined ? undefined : `title=${escapeProperty(annotation.title)}`,
  ].filter((p) => p !== undefined);
  const head = properties.length ? `${annotation.level} ${properties.join(",")}` : annotation.level;
  return `::${head}::${escapeData(annotation.message)}`;
}

/**
 * The command that opens a collapsible group of log lines (closed by `::endgroup::`), on one line
 * whatever `title` holds: its control characters and line breaks written as escapes (`\n`), then
 * escaped as the command's data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatGroup } from "./workflow_commands.ts";
 * assert.equal(formatGroup("tailgate run plans/a\n::error::x.yaml"), "::group::tailgate run plans/a\\n::error::x.yaml");
 * ```
 */
export function formatGroup(title: string): string {
  return `::group::${escapeData(printable(title))}`;
}

/**
 * Step outputs as `$GITHUB_OUTPUT` reads them: each as `name<<DELIMITER`, the value, `DELIMITER`,
 * with a random delimiter that occurs in no value, so values may span lines.
 */
export function formatOutputs(
  outputs: Record<string, string>,
  delimiter: () => string = () => `ghadelimiter_${crypto.randomUUID()}`,
): string {
  let text = "";
  for (const [name, value] of Object.entries(outputs)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new RangeError(`output name \`${name}\` must be letters, digits, _ and -`);
    }
    let end = delimiter();
    for (let i = 0; value.includes(end) || name.includes(end); i++) {
      if (i >= 10) throw new Error(`output \`${name}\` contains every delimiter tried`);
      end = delimiter();
    }
    text += `${name}<<${end}\n${value}\n${end}\n`;
  }
  return text;
}

/**
 * Appends `outputs` to the file named by `$GITHUB_OUTPUT`; does nothing outside GitHub Actions
 * (no such variable), so the scripts also run in GitLab CI or a terminal.
 */
export async function writeOutputs(
  outputs: Record<string, string>,
  outputFile: string | undefined,
): Promise<void> {
  if (!outputFile) return;
  await Deno.writeTextFile(outputFile, formatOutputs(outputs), { append: true });
}
