/**
 * A known-truth HTTPS target for the HTTP/2 truth tests, in a process of its own (so it shares
 * neither the event loop nor the timers of the engine measuring it): Deno.serve over TLS with the
 * test certificate, which agrees on h2 by ALPN. `--delay MS` answers every request after MS;
 * `--stall MS --period MS` holds each request arriving in the last MS of every period until the
 * period ends (the built-in target's stall mode); `--bytes N` answers N octets instead of "ok".
 * Prints `listening on https://127.0.0.1:PORT`.
 *
 *     deno run --allow-net=127.0.0.1 --allow-read tests/_helpers/tls_target_main.ts --delay 200
 *
 * @module
 */
const TLS_DIR = new URL("../testdata/tls/", import.meta.url);
const args = new Map<string, number>();
for (let i = 0; i + 1 < Deno.args.length; i += 2) {
  args.set(Deno.args[i].replace(/^--/, ""), Number(Deno.args[i + 1]));
}
const delayMs = args.get("delay") ?? 0;
const stallMs = args.get("stall") ?? 0;
const periodMs = args.get("period") ?? 0;
const body = args.has("bytes") ? new Uint8Array(args.get("bytes")!).fill(0x61) : "ok";
const startMs = performance.now();

/** How long the request arriving now waits. */
function waitMs(): number {
  if (stallMs <= 0 || periodMs <= 0) return delayMs;
  const intoPeriodMs = (performance.now() - startMs) % periodMs;
  return intoPeriodMs >= periodMs - stallMs ? periodMs - intoPeriodMs : 0;
}

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  cert: Deno.readTextFileSync(new URL("cert.pem", TLS_DIR)),
  key: Deno.readTextFileSync(new URL("key.pem", TLS_DIR)),
  onListen: ({ port }) => console.log(`listening on https://127.0.0.1:${port} `),
}, async () => {
  const ms = waitMs();
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  return new Response(body);
});
