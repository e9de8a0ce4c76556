/**
 * The `--ca-cert FILE` flag of `run` and `search`: each file read by the one rule for files
 * tailgate did not write (a regular file, bounded), so a FIFO or /dev/zero named by mistake is an
 * error, not a hang.
 *
 * @module
 */
import { readRegularFile } from "../../model/regular_file.ts";

/** A PEM bundle larger than this is no certificate file. */
export const MAX_CA_CERT_BYTES = 1024 * 1024;

/**
 * The PEM text of each file, or the error naming the first that cannot be read.
 */
export async function readCaCerts(
  files: readonly string[],
): Promise<{ ok: true; caCerts: string[] } | { ok: false; error: string }> {
  const caCerts: string[] = [];
  for (const file of files) {
    const read = await readRegularFile(file, MAX_CA_CERT_BYTES);
    if (!read.ok) return { ok: false, error: `--ca-cert ${file}: ${read.reason}` };
    const text = new TextDecoder().decode(read.bytes);
    if (!text.includes("-----BEGIN CERTIFICATE-----")) {
      return {
        ok: false,
        error: `--ca-cert ${file}: holds no PEM certificate ` +
          "(a `-----BEGIN CERTIFICATE-----` block); pass the CA's certificate in PEM form",
      };
    }
    caCerts.push(text);
  }
  return { ok: true, caCerts };
}
