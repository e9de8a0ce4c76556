/**
 * Which listening sockets serve a loopback target, read from the text of `/proc/net/tcp` and
 * `/proc/net/tcp6`: a socket in LISTEN (`st` 0A) on the target's port, bound to the target's
 * address or to every address. Pure: find_service.ts reads the files and finds the processes that
 * hold the sockets.
 *
 * @module
 */

/** LISTEN, in the `st` column of `/proc/net/tcp`. */
const LISTEN = "0A";

/**
 * Whether `hostname` (as a URL has it: an IPv6 address in brackets) is this machine's loopback:
 * `localhost`, 127.0.0.0/8 or ::1.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopbackHost } from "./listening_sockets.ts";
 * assert.equal(isLoopbackHost("127.0.0.1"), true);
 * assert.equal(isLoopbackHost("[::1]"), true);
 * assert.equal(isLoopbackHost("localhost"), true);
 * assert.equal(isLoopbackHost("10.0.0.7"), false);
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host === "::1") return true;
  const v4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && v4.slice(1).every((o) => Number(o) <= 255);
}

/**
 * The inodes of the sockets in `table` (the text of `/proc/net/tcp` or `/proc/net/tcp6`) that
 * listen on `port` for `hostname`, a loopback host as {@linkcode isLoopbackHost} takes it: bound
 * to its address (any loopback address for `localhost`), or to every address. The addresses are
 * read as a little-endian machine writes them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listeningInodes } from "./listening_sockets.ts";
 * const table =
 *   "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
 *   "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1\n" +
 *   "   1: 0100007F:A2C4 0100007F:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 4343 1\n";
 * assert.deepEqual(listeningInodes(table, 8080, "127.0.0.1"), [4242]);
 * assert.deepEqual(listeningInodes(table, 8081, "127.0.0.1"), []);
 * ```
 */
export function listeningInodes(table: string, port: number, hostname: string): number[] {
  const accepts = addressFilter(hostname.toLowerCase().replace(/^\[|\]$/g, ""));
  const inodes: number[] = [];
  for (const line of table.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] !== LISTEN) continue;
    const [addressHex, portHex] = fields[1].split(":");
    if (parseInt(portHex, 16) !== port) continue;
    const address = localAddress(addressHex ?? "");
    const inode = Number(fields[9]);
    if (address !== undefined && accepts(address) && Number.isSafeInteger(inode) && inode > 0) {
      inodes.push(inode);
    }
  }
  return inodes;
}

/** Which bound addresses (as {@linkcode localAddress} writes them) take a connection to `host`. */
function addressFilter(host: string): (address: string) => boolean {
  const any = (a: string) => a === "0.0.0.0" || a === "::";
  if (host === "localhost" || host === "localhost.") {
    return (a) => any(a) || a === "::1" || a.startsWith("127.");
  }
  if (host === "::1") return (a) => any(a) || a === "::1";
  return (a) => any(a) || a === host;
}

/**
 * A socket's local address from its hex form: IPv4 (8 digits, one little-endian word) as dotted
 * quads, IPv6 (32 digits, four such words) as `::`, `::1`, an IPv4-mapped address as its IPv4
 * quads, anything else as `v6`; undefined when it is neither.
 */
function localAddress(hex: string): string | undefined {
  if (!/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
  const bytes = (word: string) => [6, 4, 2, 0].map((i) => parseInt(word.slice(i, i + 2), 16));
  if (hex.length === 8) return bytes(hex).join(".");
  if (hex.length !== 32) return undefined;
  const all = [0, 8, 16, 24].flatMap((i) => bytes(hex.slice(i, i + 8)));
  const zeros = (from: number, to: number) => all.slice(from, to).every((b) => b === 0);
  if (zeros(0, 16)) return "::";
  if (zeros(0, 15) && all[15] === 1) return "::1";
  if (zeros(0, 10) && all[10] === 0xff && all[11] === 0xff) return all.slice(12).join(".");
  return "v6";
}
