/**
 * The one shape of an expected failure. A function that can fail for a reason its caller should
 * show the user (bad input, a file that is not there, a flag out of range) returns a `Result`:
 * the value, or every problem found, each saying what is wrong, where, and how to fix it.
 * Exceptions are for bugs and for I/O the caller cannot handle; only the CLI prints a problem
 * and picks the exit code.
 *
 * @module
 */

/** What is wrong, where, and how to fix it. */
export interface Problem {
  /** What is wrong, in one line. */
  message: string;
  /** How to fix it, when there is a suggestion. */
  hint?: string;
  /** The file the problem is in, as the user named it. */
  file?: string;
  /** 1-based line in `file`. */
  line?: number;
  /** 1-based column in `file`. */
  col?: number;
}

/** The value, or every problem that kept it from being made. */
export type Result<T, P extends Problem = Problem> =
  | { ok: true; value: T }
  | { ok: false; problems: P[] };

/** A successful result. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failed result: one problem, or several (at least one). */
export function err<P extends Problem = Problem>(problems: P | P[]): { ok: false; problems: P[] } {
  const list = Array.isArray(problems) ? problems : [problems];
  if (list.length === 0) throw new Error("err() needs at least one problem");
  return { ok: false, problems: list };
}

/** A problem from a message and an optional hint. */
export function problem(message: string, hint?: string): Problem {
  return hint === undefined ? { message } : { message, hint };
}

/**
 * A problem as one line: where (`file:line:col: `, as far as known), what, then the hint after
 * `; `. How the CLI and the Action print a problem that is not a plan issue (those have their
 * own, with the source line and a caret).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { problem, problemText } from "./result.ts";
 * assert.equal(problemText(problem("`4/4` is past the last shard", "write 3/4")), "`4/4` is past the last shard; write 3/4");
 * assert.equal(problemText({ message: "not YAML", file: "a.yaml", line: 3 }), "a.yaml:3: not YAML");
 * ```
 */
export function problemText(p: Problem): string {
  const where = p.file === undefined
    ? ""
    : `${
      [p.file, p.line, p.line === undefined ? undefined : p.col].filter((x) => x !== undefined)
        .join(":")
    }: `;
  return `${where}${p.message}${p.hint === undefined ? "" : `; ${p.hint}`}`;
}

/**
 * Problems from plain messages (each one whole: no hint split off).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { problems } from "./result.ts";
 * assert.deepEqual(problems(["a", "b"]), [{ message: "a" }, { message: "b" }]);
 * ```
 */
export function problems(messages: readonly string[]): Problem[] {
  return messages.map((message) => ({ message }));
}

/**
 * The problems with `prefix` before each message: the flag or input they came from.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prefixed, problem } from "./result.ts";
 * assert.deepEqual(prefixed("--shard: ", [problem("N must be 1..1024")]), [{ message: "--shard: N must be 1..1024" }]);
 * ```
 */
export function prefixed<P extends Problem>(prefix: string, problems: readonly P[]): P[] {
  return problems.map((p) => ({ ...p, message: prefix + p.message }));
}
