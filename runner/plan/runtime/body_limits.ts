/**
 * How large a body file may be: checked as a plan is read, and again as a run reads the file
 * (runner/plan/runtime/mod.ts).
 *
 * @module
 */

/** A template body file may be at most this large (it is rendered for every request). */
export const MAX_TEMPLATE_BODY_BYTES = 1024 * 1024;

/**
 * A body file may be at most this large (16 MiB): every engine worker holds it in memory, and a run
 * reads at most this much of it.
 */
export const MAX_BODY_FILE_BYTES = 16 * 1024 * 1024;
