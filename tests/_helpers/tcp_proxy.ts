/**
 * A TCP proxy on 127.0.0.1 and a free port, for tests that need a connection to fail under a
 * client: `drop()` closes every connection through it at once, without a word to either side.
 *
 * @module
 */

/** A started proxy: its http URL; `drop()` closes every connection; closed with the scope. */
export interface ForwardingProxy extends AsyncDisposable {
  readonly url: string;
  drop(): void;
}

/** A TCP proxy to `upstream` on a free port; `drop()` closes every connection through it. */
export function forwardingProxy(upstream: URL): ForwardingProxy {
  const sockets = new Set<Deno.Conn>();
  const close = (conn: Deno.Conn) => {
    try {
      conn.close();
    } catch { /* closed */ }
  };
  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      for await (const chunk of from.readable) await to.write(chunk);
    } catch { /* dropped */ }
    close(to);
  };
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        const up = await Deno.connect({ hostname: "127.0.0.1", port: Number(upstream.port) });
        sockets.add(conn).add(up);
        void pipe(conn, up);
        void pipe(up, conn);
      }
    } catch { /* listener closed */ }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}/`,
    drop() {
      for (const s of sockets) close(s);
      sockets.clear();
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      this.drop();
      await accepting;
    },
  };
}
