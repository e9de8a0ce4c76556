/**
 * The GitHub Actions runner's rules for workflow commands in a step's log, for tests that check
 * what tailgate prints. From actions/runner (src/Runner.Sdk/ProcessInvoker.cs,
 * src/Runner.Worker/Handlers/OutputManager.cs, src/Runner.Common/ActionCommand.cs,
 * src/Runner.Worker/ActionCommandManager.cs):
 *
 * - the output is read line by line with `StreamReader.ReadLine`, which ends a line at CR, LF or
 *   CRLF;
 * - `ActionCommand.TryParseV2`: `message.TrimStart()` (.NET's `char.IsWhiteSpace`), then
 *   `StartsWith("::")`, then a second `::` ends the command name and properties (`name k=v,k=v`);
 * - else `ActionCommand.TryParse`, the legacy form: `IndexOf("##[")` ANYWHERE in the line, then
 *   `]` ends the command name and properties (`name k=v;k=v`);
 * - the name is matched case-insensitively; `::stop-commands::TOKEN` ignores every command until
 *   `::TOKEN::`.
 *
 * `StartsWith` and `IndexOf` there compare by culture (ICU on Linux), which skips characters with
 * no collation weight (zero-width and other format characters, most control characters). So, to err
 * on the side of finding a command, those characters are dropped before matching here, and any
 * command name counts when asked whether a line triggers at all.
 *
 * @module
 */

/** The commands a runner registers (ActionCommandManager and its extensions). */
export const RUNNER_COMMANDS: readonly string[] = [
  "stop-commands",
  "set-env",
  "set-output",
  "save-state",
  "add-path",
  "add-mask",
  "add-matcher",
  "remove-matcher",
  "warning",
  "error",
  "notice",
  "debug",
  "group",
  "endgroup",
  "echo",
];

/** A command as the runner parses it. */
export interface RunnerCommand {
  form: "v2" | "legacy";
  /** Lower case. */
  command: string;
  properties: Record<string, string>;
  data: string;
}

/** .NET `char.IsWhiteSpace`: what `TrimStart()` removes. */
const DOTNET_WHITESPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
/** Characters a culture-sensitive comparison skips (conservatively: all of these). */
const COLLATION_IGNORED = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/gu;

/**
 * The lines the runner reads from `text`: ended by CR, LF or CRLF.
 *
 * @example
 * ```ts
 * import { runnerLines } from "./runner_commands.ts";
 * runnerLines("a\r\nb\rc\n"); // ["a", "b", "c"]
 * ```
 */
export function runnerLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  return lines;
}

/**
 * The command the runner would parse from one line, whatever its name (`names` undefined), or only
 * one of `names`; undefined when the line is plain output.
 *
 * @example
 * ```ts
 * import { runnerCommand } from "./runner_commands.ts";
 * runnerCommand("  ::error title=x::boom")?.command; // "error"
 * runnerCommand("[stage ##[warning]x")?.form; // "legacy"
 * runnerCommand(" :\\:error::x"); // undefined
 * ```
 */
export function runnerCommand(
  line: string,
  names?: readonly string[],
): RunnerCommand | undefined {
  const known = (name: string) =>
    names === undefined ? name !== "" : names.includes(name.toLowerCase());
  // Exactly as written first (the command's data and properties as the runner reads them), then
  // with the characters a culture-sensitive match skips dropped.
  const folded = line.replace(COLLATION_IGNORED, "");
  return parseV2(line, known) ?? parseV2(folded, known) ?? parseLegacy(line, known) ??
    parseLegacy(folded, known);
}

/** `ActionCommand.TryParseV2`: `TrimStart()`, a `::` prefix, the name and properties to `::`. */
function parseV2(line: string, known: (name: string) => boolean): RunnerCommand | undefined {
  const trimmed = line.replace(DOTNET_WHITESPACE, "");
  if (!trimmed.startsWith("::")) return undefined;
  const end = trimmed.indexOf("::", 2);
  if (end < 0) return undefined;
  const [name, properties] = split(trimmed.slice(2, end), " ");
  if (!known(name)) return undefined;
  return {
    form: "v2",
    command: name.toLowerCase(),
    properties: pairs(properties.trim(), ",", unescapeProperty),
    data: unescapeData(trimmed.slice(end + 2)),
  };
}

/** `ActionCommand.TryParse`: `##[` anywhere, the name and properties to `]`. */
function parseLegacy(line: string, known: (name: string) => boolean): RunnerCommand | undefined {
  const at = line.indexOf("##[");
  const close = at < 0 ? -1 : line.indexOf("]", at);
  if (close < 0) return undefined;
  const [name, properties] = split(line.slice(at + 3, close), " ");
  if (!known(name)) return undefined;
  return {
    form: "legacy",
    command: name.toLowerCase(),
    properties: pairs(properties, ";", unescapeLegacy),
    data: unescapeLegacy(line.slice(close + 1)),
  };
}

/**
 * The lines of `lines` (each split as the runner reads it) that the runner would take as a command
 * of any name: what plan-controlled output must never contain.
 *
 * @example
 * ```ts
 * import { commandLines } from "./runner_commands.ts";
 * commandLines([" ::error::x", "ok ##[warning]y"]); // [" ::error::x", "ok ##[warning]y"]
 * ```
 */
export function commandLines(lines: readonly string[]): string[] {
  return lines.flatMap(runnerLines).filter((l) => runnerCommand(l) !== undefined);
}

/**
 * The commands a runner executes from a step's printed lines: registered commands only, none while
 * `stop-commands` is in force, and its resume token as a command named `resume`.
 *
 * @example
 * ```ts
 * import { executedCommands } from "./runner_commands.ts";
 * executedCommands(["::stop-commands::t0k3n", "::error::x", "::t0k3n::"]).map((c) => c.command);
 * // ["stop-commands", "resume"]
 * ```
 */
export function executedCommands(lines: readonly string[]): RunnerCommand[] {
  const executed: RunnerCommand[] = [];
  let token: string | undefined;
  for (const line of lines.flatMap(runnerLines)) {
    const names = token === undefined ? RUNNER_COMMANDS : [...RUNNER_COMMANDS, token];
    const command = runnerCommand(line, names);
    if (command === undefined) continue;
    if (token !== undefined) {
      if (command.command === token) {
        executed.push({ ...command, command: "resume" });
        token = undefined;
      }
    } else {
      executed.push(command);
      if (command.command === "stop-commands") token = command.data.toLowerCase();
    }
  }
  return executed;
}

function split(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}

function pairs(
  text: string,
  separator: string,
  unescape: (value: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(separator).filter((p) => p !== "")) {
    const [key, value] = split(part, "=");
    if (key !== "" && value !== "") out[key] = unescape(value);
  }
  return out;
}

/** The runner's unescape mappings, applied in its order. */
const DATA_ESCAPES = [["%0D", "\r"], ["%0A", "\n"], ["%25", "%"]];
const PROPERTY_ESCAPES = [["%0D", "\r"], ["%0A", "\n"], ["%3A", ":"], ["%2C", ","], ["%25", "%"]];
const LEGACY_ESCAPES = [["%3B", ";"], ["%0D", "\r"], ["%0A", "\n"], ["%5D", "]"], ["%25", "%"]];

function unescaper(mappings: string[][]): (text: string) => string {
  return (text) => mappings.reduce((t, [from, to]) => t.replaceAll(from, to), text);
}

const unescapeData = unescaper(DATA_ESCAPES);
const unescapeProperty = unescaper(PROPERTY_ESCAPES);
const unescapeLegacy = unescaper(LEGACY_ESCAPES);
