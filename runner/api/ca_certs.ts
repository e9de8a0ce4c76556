/**
 * The `--ca-cert FILE` flag of `run` and `search`: each file read by the one rule for files
 * tailgate did not write (a regular file, bounded), so a FIFO or /dev/zero named by mistake is an
 * error, not a hang.
 *
 * @module
 */
import { readRegularFile } from "../model/mod.ts";
import { err, ok, problem, type Result } from "../model/mod.ts";

/** A PEM bundle larger than this is no certificate file. */
export const MAX_CA_CERT_BYTES = 1024 * 1024;

/**
 * The PEM text of each file, or the problem naming the first that cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCaCerts } from "./ca_certs.ts";
 * const read = await readCaCerts(["/dev/zero"]);
 * assert.deepEqual(read, {
 *   ok: false,
 *   problems: [{ message: "--ca-cert /dev/zero: is not a regular file (a device, pipe or socket)" }],
 * });
 * ```
 */
export async function readCaCerts(
  files: readonly string[],
): Promise<Result<string[]>> {
  const caCerts: string[] = [];
  for (const file of files) {
    const read = await readRegularFile(file, MAX_CA_CERT_BYTES);
    if (!read.ok) return err(problem(`--ca-cert ${file}: ${read.problems[0].reason}`));
    const text = new TextDecoder().decode(read.value);
    if (!text.includes("-----BEGIN CERTIFICATE-----")) {
      return err(problem(
        `--ca-cert ${file}: holds no PEM certificate (a \`-----BEGIN CERTIFICATE-----\` block)`,
        "pass the CA's certificate in PEM form",
      ));
    }
    caCerts.push(text);
  }
  return ok(caCerts);
}
