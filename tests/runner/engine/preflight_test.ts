import assert from "node:assert/strict";
import {
  checkReachable,
  checkTarget,
  descriptorProblem,
  openFilesLimit,
} from "../../../runner/engine/preflight.ts";
import { H2_CERT, h2cServer, h2TlsServer } from "../../_helpers/http2_servers.ts";
import { openLibcNet } from "../../../runner/engine/native/libc_net.ts";
import { openLibSsl } from "../../../runner/engine/native/libssl_tls.ts";
import { expiredSelfSigned, selfSignedCaTrue } from "../../_helpers/openssl_certs.ts";

const TLS_DIR = new URL("../../testdata/tls/", import.meta.url);
const pem = (name: string) => Deno.readTextFileSync(new URL(name, TLS_DIR));
/** Valid for localhost and 127.0.0.1, self-signed: trusted only through `caCerts`. */
const SELF_SIGNED = { cert: pem("cert.pem"), key: pem("key.pem") };
/** Valid only for the name other.test. */
const OTHER_NAME = { cert: pem("other_cert.pem"), key: pem("other_key.pem") };

/** An https server on 127.0.0.1 counting the requests it was sent. */
function httpsServer(tls: { cert: string; key: string }) {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {}, ...tls }, () => {
    requests++;
    return new Response("ok");
  });
  return Object.assign(server, {
    url: new URL(`https://127.0.0.1:${server.addr.port}/`),
    requests: () => requests,
  });
}

Deno.test("checkReachable() is satisfied by a listening 127.0.0.1 port", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = listener.accept().then((conn) => conn.close());
  const problem = await checkReachable(new URL(`http://127.0.0.1:${listener.addr.port}/health`));
  assert.equal(problem, undefined);
  await accepted;
});

Deno.test("checkReachable() says a closed port refused the connection", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close(); // nothing listens there now
  const problem = await checkReachable(new URL(`http://127.0.0.1:${port}/`), 1000);
  assert.equal(problem, `http://127.0.0.1:${port} refused the connection: is the target running?`);
});

Deno.test("descriptorProblem() refuses more connections than the open-files limit leaves room for", () => {
  assert.equal(descriptorProblem(50, 1024), undefined);
  assert.equal(descriptorProblem(960, 1024), undefined, "exactly fits beside the reserve");
  assert.equal(descriptorProblem(100_000, undefined), undefined, "unknown limit: no opinion");
  const tooMany = descriptorProblem(100_000, 1024);
  assert.match(tooMany ?? "", /up to 100000 connections .* only 1024 \(ulimit -n\)/);
  assert.match(tooMany ?? "", /ulimit -n 100064\) or lower max_connections to 960 or fewer/);
  // Below the reserve itself there is no max_connections to suggest, only a higher limit.
  const tiny = descriptorProblem(40, 64);
  assert.match(tiny ?? "", /ulimit -n 104\)$/);
});

Deno.test("openFilesLimit() reads this process's soft limit where /proc tells it", async () => {
  const limit = await openFilesLimit();
  if (Deno.build.os !== "linux") return;
  assert.ok(limit === undefined || (Number.isInteger(limit) && limit > 0), String(limit));
});

Deno.test("checkTarget() names an untrusted certificate and --ca-cert, sending no request", async () => {
  await using server = httpsServer(SELF_SIGNED);
  const problem = await checkTarget(server.url);
  assert.equal(
    problem,
    `${server.url.origin}: the target's TLS certificate is not trusted: it is signed by an ` +
      "issuer this machine does not trust (self-signed, or a private CA); pass --ca-cert FILE " +
      "with the CA that signed it (a self-signed certificate: the certificate itself)",
  );
  // Trusted through --ca-cert, the same server is fine.
  assert.equal(await checkTarget(server.url, [SELF_SIGNED.cert]), undefined);
  assert.equal(server.requests(), 0, "a handshake only: no request was sent");
});

Deno.test("checkTarget() names a certificate issued for another name", async () => {
  await using server = httpsServer(OTHER_NAME);
  // Trusted, but valid only for other.test: --ca-cert cannot help, the name can.
  const problem = await checkTarget(server.url, [OTHER_NAME.cert]);
  assert.equal(
    problem,
    `${server.url.origin}: the target's TLS certificate is not valid for the name 127.0.0.1 ` +
      "(only for other.test); reach the target by a name the certificate holds (--target), or " +
      "have it present a certificate for 127.0.0.1",
  );
  assert.equal(server.requests(), 0);
});

Deno.test("checkTarget() says when an https URL reaches a server that does not speak TLS", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("plain"),
  );
  const url = new URL(`https://127.0.0.1:${server.addr.port}/`);
  assert.match(
    (await checkTarget(url)) ?? "",
    /^https:\/\/127\.0\.0\.1:\d+ did not complete a TLS handshake \(.+\): is it an https server\?/,
  );
  // Plain http to an HTTP/1.1 server: reached, and not HTTP/2 only.
  assert.equal(await checkTarget(new URL(`http://127.0.0.1:${server.addr.port}/`)), undefined);
});

Deno.test("checkTarget() names an h2c-only server, what tailgate sends and the fix", async () => {
  await using server = await h2cServer();
  const { origin } = new URL(server.url);
  assert.equal(
    await checkTarget(new URL(server.url)),
    `${origin} speaks only HTTP/2 (it answered an HTTP/1.1 request with an HTTP/2 SETTINGS ` +
      "frame), and this plan sends HTTP/1.1: set `load.http: 2` in the plan (or run with " +
      "--http2), or point it at a port that speaks HTTP/1.1 (nginx: a `listen` without `http2`)",
  );
  assert.equal(server.requests(), 0);
});

Deno.test("checkTarget() names a TLS server offering only ALPN h2; one offering http/1.1 passes", async () => {
  await using only = await h2TlsServer(false);
  const problem = await checkTarget(new URL(only.url), [H2_CERT]);
  assert.match(
    problem ?? "",
    /^https:\/\/127\.0\.0\.1:\d+ speaks only HTTP\/2 \(its TLS offers only ALPN h2, refusing http\/1\.1\), and this plan sends HTTP\/1\.1: set `load\.http: 2` in the plan \(or run with --http2\), or point it at a server that offers http\/1\.1 by ALPN too/,
  );
  await using both = await h2TlsServer(true);
  assert.equal(await checkTarget(new URL(both.url), [H2_CERT]), undefined);
  assert.equal(only.requests() + both.requests(), 0, "handshakes only");
});

Deno.test("checkTarget() passes an HTTP/1.1 server without sending it a request", async () => {
  await using server = httpsServer(SELF_SIGNED);
  let plainRequests = 0;
  await using plain = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    plainRequests++;
    return new Response("ok");
  });
  assert.equal(await checkTarget(server.url, [SELF_SIGNED.cert]), undefined);
  assert.equal(await checkTarget(new URL(`http://127.0.0.1:${plain.addr.port}/`)), undefined);
  assert.deepEqual([server.requests(), plainRequests], [0, 0]);
});

/** Whether this machine runs https on the native path (OpenSSL 3 through FFI), as the run would. */
const NATIVE_TLS = openLibcNet() !== undefined && openLibSsl() !== undefined &&
  Deno.env.get("TAILGATE_IO") !== "deno";

/** `f` run with `TAILGATE_IO` set to `io`, as it was afterwards. */
async function withIo<T>(io: string, f: () => Promise<T>): Promise<T> {
  const before = Deno.env.get("TAILGATE_IO");
  Deno.env.set("TAILGATE_IO", io);
  try {
    return await f();
  } finally {
    if (before === undefined) Deno.env.delete("TAILGATE_IO");
    else Deno.env.set("TAILGATE_IO", before);
  }
}

Deno.test({
  name: "checkTarget() takes the CA:TRUE certificate `openssl req -x509` makes, given by --ca-cert",
  ignore: !NATIVE_TLS,
  fn: async () => {
    const pair = await selfSignedCaTrue();
    await using server = httpsServer(pair);
    // The run's connections verify it with OpenSSL, as curl does: the end entity it is.
    assert.equal(await checkTarget(server.url, [pair.cert]), undefined);
    assert.equal(await checkTarget(server.url, [pair.cert], undefined, "2"), undefined);
    // Not given, it is a self-signed certificate no one trusts: --ca-cert is the fix.
    assert.equal(
      await checkTarget(server.url),
      `${server.url.origin}: the target's TLS certificate is not trusted: it is signed by an ` +
        "issuer this machine does not trust (self-signed, or a private CA); pass --ca-cert FILE " +
        "with the CA that signed it (a self-signed certificate: the certificate itself)",
    );
    assert.equal(server.requests(), 0, "handshakes only");
  },
});

Deno.test("checkTarget() on Deno's TLS names a CA:TRUE certificate's cause and its fix", async () => {
  const pair = await selfSignedCaTrue();
  await using server = httpsServer(pair);
  const problem = await withIo("deno", () => checkTarget(server.url, [pair.cert]));
  assert.equal(
    problem,
    `${server.url.origin}: the server's certificate is a CA certificate (basicConstraints ` +
      "CA:TRUE, as `openssl req -x509` makes it unless told otherwise) presented as its own, " +
      "which Deno's TLS (rustls) refuses even when --ca-cert trusts it; OpenSSL (curl, " +
      "tailgate's native I/O path) accepts it: re-issue it as a server certificate (`-addext " +
      "basicConstraints=critical,CA:FALSE`), or leave TAILGATE_IO unset on Linux with OpenSSL 3",
  );
});

Deno.test("checkTarget() tells an expired certificate to be renewed, never to pass --ca-cert", async () => {
  for (const ca of [false, true]) {
    const pair = await expiredSelfSigned(ca);
    await using server = httpsServer(pair);
    for (const trusted of [[pair.cert], []]) {
      for (const io of ["auto", "deno"]) {
        const problem = await withIo(io, () => checkTarget(server.url, trusted));
        const what = `CA:${ca}, ${trusted.length ? "trusted" : "untrusted"}, ${io}: ${problem}`;
        assert.match(
          problem ?? "",
          /^https:\/\/127\.0\.0\.1:\d+: the target's TLS certificate has expired \(.+\): renew it on the server; trusting it \(--ca-cert\) cannot make it valid$/,
          what,
        );
      }
    }
  }
});
