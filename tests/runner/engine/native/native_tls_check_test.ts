import assert from "node:assert/strict";
import { nativeTlsHandshake } from "../../../../runner/engine/native/native_tls_check.ts";
import { openLibSsl } from "../../../../runner/engine/native/libssl_tls.ts";
import { selfSignedCaTrue } from "../../../_helpers/openssl_certs.ts";

const lib = openLibSsl();

Deno.test({
  name: "nativeTlsHandshake() takes a trusted CA:TRUE certificate as the server's, and says ALPN",
  ignore: lib === undefined,
  fn: async () => {
    const pair = await selfSignedCaTrue();
    let requests = 0;
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {}, ...pair },
      () => (requests++, new Response("ok")),
    );
    const peer = { hostname: "127.0.0.1", port: server.addr.port };
    const h1 = await nativeTlsHandshake(lib!, peer, [pair.cert], ["http/1.1"], 2000);
    assert.deepEqual(h1, { ok: true, value: "http/1.1" });
    const h2 = await nativeTlsHandshake(lib!, peer, [pair.cert], ["h2"], 2000);
    assert.deepEqual(h2, { ok: true, value: "h2" });
    const untrusted = await nativeTlsHandshake(lib!, peer, [], ["http/1.1"], 2000);
    assert.ok(!untrusted.ok);
    assert.equal(
      untrusted.problems[0].message,
      "certificate verify failed: self-signed certificate",
    );
    assert.equal(requests, 0, "handshakes only");
  },
});

Deno.test({
  name: "nativeTlsHandshake() says when a server does not answer TLS within the time given",
  ignore: lib === undefined,
  fn: async () => {
    using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const held: Deno.Conn[] = [];
    const accepting = listener.accept().then((c) => held.push(c), () => {});
    const peer = { hostname: "127.0.0.1", port: listener.addr.port };
    const silent = await nativeTlsHandshake(lib!, peer, [], ["http/1.1"], 200);
    assert.deepEqual(silent, {
      ok: false,
      problems: [{ message: "no TLS handshake within 200 ms" }],
    });
    await accepting;
    for (const c of held) c.close();
  },
});
