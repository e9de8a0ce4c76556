/**
 * What an HTTP/2 session needs of its socket: connect, write in order, close, and hand over the
 * bytes read with the time they reached the socket. Two kinds exist: Deno's sockets
 * (`h2_deno_transport.ts`: TLS, and anywhere) and the native path's libc sockets on the epoll
 * loop (`runner/engine/native/native_h2_transport.ts`: h2c on Linux).
 *
 * @module
 */

/** What a transport tells its session. */
export interface H2Receiver {
  /**
   * Bytes arrived: `buffer[start, end)`, the bytes not taken last time first. Returns how many it
   * took (whole frames); the rest comes again with what follows. `arrivedMs`: when the last of
   * them reached the socket, on the engine clock.
   */
  onBytes(buffer: Uint8Array, start: number, end: number, arrivedMs: number): number;
  /** The peer closed the connection. */
  onEnd(): void;
  /** Reading or writing failed. */
  onError(error: unknown): void;
}

/** One connection's socket. */
export interface H2Transport {
  /** Connects; resolves once connected (TLS agreed on `h2`), rejects with the error. */
  connect(receiver: H2Receiver): Promise<void>;
  /**
   * Sends `bytes` after everything written before; returns the octets still waiting to be sent
   * (0 when the socket took everything).
   */
  write(bytes: Uint8Array): number;
  /** Closes the socket; nothing more is reported. */
  close(): void;
}

/** The read buffer: room for several frames of the default maximum size (16 KiB). */
export const H2_READ_BYTES = 64 * 1024;
