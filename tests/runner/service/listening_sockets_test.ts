import assert from "node:assert/strict";
import { isLoopbackHost, listeningInodes } from "../../../runner/service/mod.ts";

const HEAD =
  "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
/** One row of /proc/net/tcp(6): its local address (hex:port hex), state and inode. */
const row = (local: string, st: string, inode: number) =>
  `   0: ${local} 00000000:0000 ${st} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0000000000000000 100 0 0 10 0\n`;

Deno.test("isLoopbackHost() takes localhost, 127.0.0.0/8 and ::1, nothing else", () => {
  for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["10.0.0.7", "128.0.0.1", "127.0.0.256", "[::2]", "example.com", "0.0.0.0"]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

Deno.test("listeningInodes() keeps LISTEN sockets on the port, bound to the host or to any", () => {
  const table = HEAD +
    row("0100007F:1F90", "0A", 11) + // 127.0.0.1:8080, LISTEN
    row("00000000:1F90", "0A", 12) + // 0.0.0.0:8080
    row("0200007F:1F90", "0A", 13) + // 127.0.0.2:8080: another loopback address
    row("0700000A:1F90", "0A", 14) + // 10.0.0.7:8080: not reached from loopback
    row("0100007F:1F90", "01", 15) + // an established connection
    row("0100007F:1F91", "0A", 16); // another port
  assert.deepEqual(listeningInodes(table, 8080, "127.0.0.1"), [11, 12]);
  assert.deepEqual(listeningInodes(table, 8080, "127.0.0.2"), [12, 13]);
  assert.deepEqual(listeningInodes(table, 8080, "localhost"), [11, 12, 13]);
  assert.deepEqual(listeningInodes(table, 8081, "127.0.0.1"), [16]);
  assert.deepEqual(listeningInodes(HEAD, 8080, "127.0.0.1"), []);
});

Deno.test("listeningInodes() reads tcp6 addresses: ::, ::1 and IPv4-mapped ones", () => {
  const any = "00000000000000000000000000000000";
  const loop6 = "00000000000000000000000001000000";
  const mapped = "0000000000000000FFFF00000100007F"; // ::ffff:127.0.0.1
  const other = "B80D0120000000000000000001000000"; // 2001:db8::1
  const table = HEAD + row(`${any}:1F90`, "0A", 21) + row(`${loop6}:1F90`, "0A", 22) +
    row(`${mapped}:1F90`, "0A", 23) + row(`${other}:1F90`, "0A", 24);
  assert.deepEqual(listeningInodes(table, 8080, "[::1]"), [21, 22]);
  assert.deepEqual(listeningInodes(table, 8080, "127.0.0.1"), [21, 23]);
  assert.deepEqual(listeningInodes(table, 8080, "localhost"), [21, 22, 23]);
});

Deno.test("listeningInodes() skips rows it cannot read", () => {
  const table = HEAD + "garbage\n" + row("XYZ:1F90", "0A", 31) + row("0100007F:1F90", "0A", 0);
  assert.deepEqual(listeningInodes(table, 8080, "127.0.0.1"), []);
});
