import assert from "node:assert/strict";
import { chooseTransport } from "../../../../runner/run/wiring/transport.ts";
import type { Connection, Waker } from "../../../../runner/engine/types.ts";
import { BodySampler } from "../../../../runner/engine/body_sample.ts";

const CLOCK = { nowMs: () => 0 };
const HOOKS = {
  onOutOfDescriptors: () => {},
  onHttp2Reply: () => {},
  bodySampler: new BodySampler(),
};

/** A waker that only notes being closed. */
function fakeWaker(log: string[]): Waker {
  return {
    sleepUntil: () => Promise.resolve(),
    interrupt: () => {},
    close: () => log.push("closed"),
  };
}

Deno.test("chooseTransport() takes Deno's path with a test's waker and connections, and leaves the waker open", async () => {
  const log: string[] = [];
  const waker = fakeWaker(log);
  const made: URL[] = [];
  const connect = (url: URL) => {
    made.push(url);
    return {} as Connection;
  };
  const choice = await chooseTransport({
    origin: new URL("http://127.0.0.1:1"),
    io: "native",
    alpn: "http/1.1",
    waker,
    connect,
  });
  assert.equal(choice.io, "deno");
  const transport = await choice.open({ clock: CLOCK, onResume: () => {}, hooks: HOOKS });
  assert.equal(transport.waker, waker);
  transport.http1(new URL("http://127.0.0.1:1"), CLOCK);
  assert.deepEqual(made.map(String), ["http://127.0.0.1:1/"]);
  assert.equal(transport.h2, undefined, "HTTP/2 sessions on the pool's own Deno sockets");
  transport.close();
  assert.deepEqual(log, [], "a lent waker is its lender's to close");
});

Deno.test("chooseTransport() takes Deno's path when asked, without resolving the target", async () => {
  const choice = await chooseTransport({
    origin: new URL("http://no-such-host.invalid:1"),
    io: "deno",
    alpn: "h2",
  });
  assert.equal(choice.io, "deno");
});
