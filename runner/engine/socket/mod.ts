/**
 * The Deno-socket I/O path: an HTTP/1.1 connection over `Deno.connect` / `Deno.connectTls`.
 *
 * @module
 */
export { Http1Connection } from "./http1_connection.ts";
