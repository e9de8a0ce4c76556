/**
 * The native I/O path on Linux: libc sockets through FFI, one epoll loop on the engine thread, and
 * the connections it drives; `native_target.ts` says when a run takes it.
 *
 * @module
 */
export { EpollLoop } from "./epoll_loop.ts";
export { NativeConnection } from "./native_connection.ts";
export { NativeH2Transport } from "./native_h2_transport.ts";
export { openLibSsl, TlsContext } from "./libssl_tls.ts";
export { nativeTlsHandshake, type TlsPeer } from "./native_tls_check.ts";
export { ioChoice, nativeTarget, nativeTls } from "./native_target.ts";
export type { NativeTarget } from "./native_target.ts";
