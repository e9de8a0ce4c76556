/**
 * The Deno-socket I/O path: an HTTP/1.1 connection over `Deno.connect` / `Deno.connectTls`, and
 * the reader every connection on Deno's sockets reads with (HTTP/2's transport too).
 *
 * @module
 */
export { Http1Connection } from "./http1_connection.ts";
export { type SocketRead, socketReader } from "./socket_reader.ts";
