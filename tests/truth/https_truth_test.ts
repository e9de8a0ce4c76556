/**
 * Truth tests over HTTP/1.1 on TLS (an https target), as over plain HTTP: tls_target_main.ts
 * (Deno.serve with the test certificate, in a process of its own) read by OpenSSL on the native
 * path and by Deno's TLS. The TLS handshake of a new connection is in the response time of the
 * request that opened it, not in its service time, as a TCP connect is.
 *
 * - A fixed 500 ms: p50, p90 and p99 within 2% of it. 100 requests are in flight at 200/s, on 110
 *   connections opened before the schedule starts: none waits for one, so the corrected time is
 *   the server's alone. (Growing from 4 connections, Deno's TLS read p99 632 ms beside two busy
 *   helpers: each new connection's handshake is on the engine's thread, and the requests behind
 *   it wait.)
 * - The stall distribution of stall_truth_test.ts (a freeze of S = 1 s at the end of every
 *   P = 5 s) within 5%, at 200/s on up to 100 connections (the load of the HTTP/2 truth tests:
 *   100 requests on the wire when it freezes, the rest wait for a connection and go out as the
 *   answers free them, which puts a few ms on the held requests).
 */
import assert from "node:assert/strict";
import { openLibcNet } from "../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../runner/engine/native/libssl_tls.ts";
import { startTlsTarget } from "../_helpers/tls_target_process.ts";
import { H2_CERT } from "../_helpers/http2_servers.ts";
import { offTruth, runAgainst, STALL_TRUTH } from "../_helpers/truth.ts";

const FIXED_LOAD = { rate: "200/s", duration: "5s", connections: 110, maxConnections: 120 };
const STALL_LOAD = { rate: "200/s", duration: "10s", connections: 4, maxConnections: 100 };

for (const io of ["native", "deno"] as const) {
  const name = io === "native" ? "native I/O (OpenSSL)" : "Deno's TLS";
  const ignore = io === "native" && (openLibcNet() === undefined || openLibSsl() === undefined);
  Deno.test({
    name: `over HTTP/1.1 on TLS, ${name}, a fixed 500 ms reads within 2% at p50, p90 and p99`,
    ignore,
    fn: async () => {
      await using target = await startTlsTarget(["--delay", "500"]);
      const stage = (await runAgainst(target.url, FIXED_LOAD, io, [H2_CERT])).stages[1];
      assert.deepEqual([stage.counts.completed, stage.counts.ok], [1000, 1000]);
      const truth = { "50": 500, "90": 500, "99": 500 } as Parameters<typeof offTruth>[1];
      assert.deepEqual(offTruth(stage.response, truth, 0.02), []);
    },
  });
  Deno.test({
    name: `over HTTP/1.1 on TLS, ${name}, corrected response time matches the stall distribution`,
    ignore,
    fn: async () => {
      await using target = await startTlsTarget(["--stall", "1000", "--period", "5000"]);
      const stage = (await runAgainst(target.url, STALL_LOAD, io, [H2_CERT])).stages[1];
      assert.deepEqual([stage.counts.completed, stage.counts.ok], [2000, 2000]);
      assert.deepEqual(offTruth(stage.response, STALL_TRUTH), []);
      // The service time, from the request's write, hides the stall: the check tells them apart.
      assert.notDeepEqual(offTruth(stage.service, STALL_TRUTH), []);
    },
  });
}
