/**
 * A known-truth gRPC target for the gRPC truth test, in a process of its own (so it shares
 * neither the event loop nor the timers of the engine measuring it): grpc_server.ts's server,
 * answering every call OK after `--delay MS`, or, with `--stall MS --period MS`, holding each
 * call arriving in the last MS of every period until the period ends. Prints
 * `listening on http://127.0.0.1:PORT`.
 *
 *     deno run --allow-net=127.0.0.1 --allow-read --allow-env tests/_helpers/grpc_target_main.ts --delay 500
 *
 * @module
 */
import { grpcServer } from "./grpc_server.ts";

const args = new Map<string, number>();
for (let i = 0; i + 1 < Deno.args.length; i += 2) {
  args.set(Deno.args[i].replace(/^--/, ""), Number(Deno.args[i + 1]));
}
const delayMs = args.get("delay") ?? 0;
const stallMs = args.get("stall") ?? 0;
const periodMs = args.get("period") ?? 0;
const server = await grpcServer({
  answer: () => ({ delayMs }),
  ...(stallMs > 0 && periodMs > 0 ? { stall: { periodMs, stallMs } } : {}),
});
console.log(`listening on ${server.origin} `);
