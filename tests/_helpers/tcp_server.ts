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

/**
 * A listening socket on 127.0.0.1 that never accepts, with a listen backlog of 0: the kernel
 * completes a handshake or two, then drops further SYNs, so a client's connect waits minutes.
 * Made through libc (Deno.listen cannot set the backlog); undefined where FFI is unavailable.
 */
export function stuckListener(): ({ url: string } & Disposable) | undefined {
  if (Deno.build.os !== "linux") return undefined;
  let libc;
  try {
    libc = Deno.dlopen("libc.so.6", {
      socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
      bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
      listen: { parameters: ["i32", "i32"], result: "i32" },
      getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
      close: { parameters: ["i32"], result: "i32" },
    });
  } catch {
    return undefined;
  }
  const { symbols } = libc;
  const fd = symbols.socket(2, 1, 0);
  const address = new Uint8Array([2, 0, 0, 0, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
  const length = new Uint32Array([16]);
  if (
    fd < 0 || symbols.bind(fd, address, 16) !== 0 || symbols.listen(fd, 0) !== 0 ||
    symbols.getsockname(fd, address, new Uint8Array(length.buffer)) !== 0
  ) {
    libc.close();
    throw new Error("could not open a listening socket");
  }
  const port = (address[2] << 8) | address[3];
  return {
    url: `http://127.0.0.1:${port}/`,
    [Symbol.dispose]: () => {
      symbols.close(fd);
      libc.close();
    },
  };
}
