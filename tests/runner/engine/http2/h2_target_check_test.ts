import assert from "node:assert/strict";
import { checkTarget } from "../../../../runner/engine/preflight.ts";
import { H2_CERT, h2cServer, h2TlsServer } from "../../../_helpers/http2_servers.ts";
import { tcpServer } from "../../../_helpers/tcp_server.ts";

Deno.test("an h2c server passes the HTTP/2 pre-flight, and an HTTP/1.1 port is named with the fix", async () => {
  await using h2c = await h2cServer();
  assert.equal(await checkTarget(new URL(h2c.url), [], 1000, "2"), undefined);
  // nginx without `http2` answers the preface's request line as a bad HTTP/1.1 request.
  await using http1 = tcpServer(async (conn) => {
    await conn.read(new Uint8Array(64));
    await conn.write(new TextEncoder().encode("HTTP/1.1 400 Bad Request\r\n\r\n"));
  });
  const problem = await checkTarget(new URL(http1.url), [], 1000, "2");
  assert.match(
    problem ?? "",
    /does not speak cleartext HTTP\/2 \(h2c with prior knowledge\): it answered in HTTP\/1 \(HTTP\/1\.1 400 Bad Request\)/,
  );
  assert.match(problem ?? "", /nginx: `listen … http2`.*leave load\.http at 1\.1/);
  assert.equal(h2c.requests(), 0, "the pre-flight sends no request");
});

Deno.test("a cleartext server that stays silent to the HTTP/2 preface is no h2c server", async () => {
  await using server = tcpServer(async (conn) => {
    await conn.read(new Uint8Array(64));
  });
  const problem = await checkTarget(new URL(server.url), [], 200, "2");
  assert.match(problem ?? "", /it sent nothing back within 200 ms to the HTTP\/2 preface/);
});

Deno.test("over TLS, HTTP/2 needs the server to agree to ALPN h2: no silent fallback", async () => {
  await using h2only = await h2TlsServer(false);
  assert.equal(await checkTarget(new URL(h2only.url), [H2_CERT], 1000, "2"), undefined);
  await using both = await h2TlsServer(true);
  assert.equal(await checkTarget(new URL(both.url), [H2_CERT], 1000, "2"), undefined);
  // An HTTP/1.1-only TLS server: ALPN http/1.1 alone.
  const tls = new URL("../../../testdata/tls/", import.meta.url);
  const listener = Deno.listenTls({
    hostname: "127.0.0.1",
    port: 0,
    cert: H2_CERT,
    key: await Deno.readTextFile(new URL("key.pem", tls)),
    alpnProtocols: ["http/1.1"],
  });
  const accepting = (async () => {
    for await (const conn of listener) conn.handshake().catch(() => {}).finally(() => conn.close());
  })();
  try {
    const url = new URL(`https://127.0.0.1:${listener.addr.port}/`);
    const problem = await checkTarget(url, [H2_CERT], 1000, "2");
    assert.match(
      problem ?? "",
      /did not agree to HTTP\/2 by ALPN|refused a TLS handshake offering ALPN h2/,
    );
    assert.match(problem ?? "", /load\.http/);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});
