/**
 * A raw TCP server on 127.0.0.1 and a free port for client tests: `onConnection` drives each
 * accepted socket; every socket and the listener are closed when the test's scope ends.
 *
 * @module
 */

/** Closes a socket that may already be closed. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch { /* already closed */ }
}

/** Starts the server; `url` is its http URL, `accepted()` how many sockets it accepted. */
export function tcpServer(onConnection: (conn: Deno.TcpConn) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const sockets = new Set<Deno.TcpConn>();
  const tasks: Promise<void>[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        sockets.add(conn);
        tasks.push(onConnection(conn).catch(() => {}).finally(() => closeQuietly(conn)));
      }
    } catch { /* listener closed */ }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}/`,
    accepted: () => sockets.size,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of sockets) closeQuietly(conn);
      await accepting;
      await Promise.all(tasks);
    },
  };
}
