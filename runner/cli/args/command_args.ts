/**
 * A command's arguments read by `node:util`'s `parseArgs`, or the one problem a user can act on.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { didYouMean } from "../../plan/mod.ts";
import { err, ok, problem, type Result } from "../../model/mod.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * Reads `args` (positionals allowed) against a command's option table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandArgs } from "./command_args.ts";
 * const read = parseCommandArgs(["plan.yaml", "--targt", "x"], { target: { type: "string" } });
 * assert.ok(!read.ok);
 * assert.equal(read.problems[0].message, "unknown option `--targt`; did you mean `--target`?");
 * ```
 */
export function parseCommandArgs<const O extends Options>(args: string[], options: O) {
  try {
    return ok(parseArgs({ args, allowPositionals: true, options }));
  } catch (e) {
    return err(problem(argsError(e, options))) as Result<never>;
  }
}

/**
 * A `parseArgs` failure as one sentence a user can act on: an unknown option gets the nearest known
 * one (`--targt` → did you mean `--target`?) or the list, a missing value says which option needs
 * one; never Node's raw text.
 */
export function argsError(e: unknown, options: Readonly<Record<string, unknown>> = {}): string {
  const message = e instanceof Error ? e.message : String(e);
  const flags = Object.keys(options).map((k) => `--${k}`);
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown) {
    const name = unknown[1];
    const guess = didYouMean(name.replace(/^-+/, ""), Object.keys(options));
    return `unknown option \`${name}\`; ` +
      (guess
        ? `did you mean \`--${guess}\`?`
        : flags.length
        ? `the options are ${flags.join(", ")}`
        : "this command takes no options");
  }
  const missing = /^Option '(-[^' ]+)[^']*' argument missing/.exec(message);
  if (missing) return `\`${missing[1]}\` needs a value, e.g. \`${missing[1]} <value>\``;
  const unexpected = /^Unexpected argument '([^']+)'/.exec(message);
  if (unexpected) return `unexpected argument \`${unexpected[1]}\``;
  return message.replace(/^./, (c) => c.toLowerCase()).replace(/\.?$/, "");
}
