/**
 * Rendering templated requests ahead of the schedule (plan `data`, `vars` and `{{…}}` templates).
 *
 * @module
 */
export { ByteWriter } from "./byte_writer.ts";
export { EncodedColumn, encodeText } from "./encoded_values.ts";
export { type EncodeBody, RequestRenderer } from "./request_renderer.ts";
export { RENDER_AHEAD, RenderAhead } from "./render_ahead.ts";
