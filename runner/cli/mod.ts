/**
 * The `tailgate` command's table: each command reads its arguments into options, makes one call
 * of the run's lifecycle (runner/api) or of a reader, and returns an outcome that cli.ts prints
 * the same way for every command.
 *
 * @module
 */
export { COMMANDS, findCommand, helpText, unknownCommand, versionText } from "./commands.ts";
export type { Command, CommandContext, CommandOutcome } from "./command.ts";
