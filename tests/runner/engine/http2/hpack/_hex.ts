/** Test helpers: hex as the RFC prints it, and the fields a block decodes to. */
import type { HpackDecoder } from "../../../../../runner/engine/http2/hpack/mod.ts";

/** Bytes of `hex`, whitespace ignored ("8286 8441" as RFC 7541 Appendix C shows blocks). */
export function hex(text: string): Uint8Array {
  const digits = text.replace(/\s+/g, "");
  return Uint8Array.from(
    { length: digits.length / 2 },
    (_, i) => parseInt(digits.slice(2 * i, 2 * i + 2), 16),
  );
}

/** The fields `decoder` decodes `block` to, as [name, value] pairs. */
export function decodeFields(decoder: HpackDecoder, block: Uint8Array): [string, string][] {
  const fields: [string, string][] = [];
  decoder.decode(block, (name, value) => fields.push([name, value]));
  return fields;
}
