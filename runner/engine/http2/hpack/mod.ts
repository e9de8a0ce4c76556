/**
 * HPACK (RFC 7541) for tailgate's HTTP/2 engine: a decoder per connection with its dynamic
 * table, a stateless encoder for request blocks computed once, and the Huffman code.
 *
 * @module
 */
export { HpackDecoder } from "./hpack_decoder.ts";
export { encodeHeaderBlock, writeStringLiteral } from "./hpack_encoder.ts";
export { HpackError } from "./hpack_error.ts";
export {
  HUFFMAN_CODE_LENGTHS_BITS,
  HUFFMAN_CODES,
  huffmanDecode,
  huffmanEncode,
  huffmanEncodedLength,
} from "./hpack_huffman.ts";
export { encodeInteger, integerLength } from "./hpack_integer.ts";
export { latin1Bytes, latin1String } from "./hpack_latin1.ts";
export {
  STATIC_NAMES,
  STATIC_TABLE,
  STATIC_VALUES,
  staticFieldIndex,
  staticNameIndex,
} from "./hpack_static_table.ts";
