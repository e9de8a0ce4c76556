/**
 * How the engine reads a socket. `Deno.Conn.read` wraps the read op with bookkeeping for
 * `ref`/`unref`: every read adds its promise to a `Set` held by the connection and deletes it
 * when it settles. The connection lives long, so V8 keeps it in the old generation, and every
 * rehash of that set's table (about one read in two) allocates the new table straight into the
 * old generation: about 2 MB a second at 20k requests/s, which set off an incremental
 * mark-compact every ~2.6 s whose marking steps stalled the engine thread for 10-15 ms (measured
 * with the sampling heap profiler and `--trace-gc`; docs/decisions/direct_reads_semi_space.md).
 * For plain TCP this reads through Deno's read op directly, as `Conn.read` itself does, without
 * the set; where that op or the connection's resource id is not reachable (another Deno, TLS) it
 * uses `Conn.read`. The engine never unrefs its connections, so the bookkeeping skipped is never
 * needed.
 *
 * @module
 */

/** Reads into `buffer`; resolves with the byte count, or null at end of stream. */
export type SocketRead = (buffer: Uint8Array) => Promise<number | null>;

interface DenoCore {
  read(rid: number, buffer: Uint8Array): Promise<number>;
}

function denoCore(): DenoCore | undefined {
  const internal = (Deno as unknown as Record<symbol, unknown>)[
    (Deno as unknown as { internal: symbol }).internal
  ] as { core?: Partial<DenoCore> } | undefined;
  const core = internal?.core;
  return typeof core?.read === "function" ? core as DenoCore : undefined;
}

const CORE = denoCore();

function ridOf(conn: Deno.Conn): number | undefined {
  const symbol = Object.getOwnPropertySymbols(conn)
    .find((s) => s.description === "Deno.internal.rid");
  const rid = symbol === undefined
    ? undefined
    : (conn as unknown as Record<symbol, unknown>)[symbol];
  return typeof rid === "number" ? rid : undefined;
}

/**
 * The reader for `conn`: the direct read op for a plain TCP connection where reachable, else
 * `conn.read`. `direct` says which.
 */
export function socketReader(conn: Deno.Conn, tls: boolean): { read: SocketRead; direct: boolean } {
  const rid = tls || CORE === undefined ? undefined : ridOf(conn);
  if (rid === undefined || CORE === undefined) {
    return { read: (buffer) => conn.read(buffer), direct: false };
  }
  const core = CORE;
  return {
    read: (buffer) => core.read(rid, buffer).then(endOfStream),
    direct: true,
  };
}

function endOfStream(n: number): number | null {
  return n === 0 ? null : n;
}
