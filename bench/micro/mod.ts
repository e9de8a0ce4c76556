/**
 * The micro-benchmarks (`Deno.bench`, run by `deno task bench`): one hot path each, measured in a
 * loop on this machine, never a target of their own (the engine's figures come from the yardstick,
 * ../shared/bench/peers.sh, and the whole-run studies beside this folder).
 *
 * - `hdr_codec_bench.ts`: recording into, encoding and decoding a latency histogram.
 * - `hpack_decode_bench.ts`: decoding an HTTP/2 response's header block.
 * - `h2_request_bench.ts`: building an HTTP/2 request's frames.
 * - `reporters_bench.ts`: rendering every report format from recorded results.
 * - `check_eval_bench.ts`: keeping a response and evaluating a label's checks on it.
 * - `trace_stamp_bench.ts`: a send's `traceparent` written into its bytes, and the recorder's
 *   slowest requests and exemplars per completion.
 * - `detect_changes_bench.ts`: the history gate's change-point search over 500 runs.
 *
 * @module
 */
export {};
