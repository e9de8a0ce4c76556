/**
 * A non-blocking TCP connect on the native path, shared by the HTTP/1.1 connection and the HTTP/2
 * transport: the socket (TCP_NODELAY, the kernel's receive timestamps on), the connect started,
 * and its outcome read once the socket turns writable.
 *
 * @module
 */
import { type LibcNet, NET } from "./libc_net.ts";

const ONE = new Uint8Array(new Int32Array([1]).buffer);

/**
 * A socket connecting to `address` (`sockaddr` bytes), or the errno of the call that failed (the
 * socket, if made, closed again). `EMFILE`/`ENFILE`: the process is out of file descriptors.
 */
export function startConnect(
  libc: LibcNet,
  address: Uint8Array,
): { fd: number; errno?: undefined } | { errno: number } {
  const { symbols, errno } = libc;
  const family = address.length === 28 ? NET.AF_INET6 : NET.AF_INET;
  const fd = symbols.socket(family, NET.SOCK_STREAM | NET.SOCK_NONBLOCK | NET.SOCK_CLOEXEC, 0);
  if (fd < 0) return { errno: errno() };
  symbols.setsockopt(fd, NET.IPPROTO_TCP, NET.TCP_NODELAY, ONE, 4);
  libc.timestampArrivals(fd);
  if (symbols.connect(fd, address, address.length) !== 0) {
    const code = errno();
    if (code !== NET.EINPROGRESS) {
      symbols.close(fd);
      return { errno: code };
    }
  }
  return { fd };
}

/** Once the connecting `fd` is writable: 0 when it connected, else its errno (-1: unreadable). */
export function connectOutcome(libc: LibcNet, fd: number): number {
  const error = new Int32Array(1);
  const length = new Uint32Array([4]);
  const ok = libc.symbols.getsockopt(
    fd,
    NET.SOL_SOCKET,
    NET.SO_ERROR,
    new Uint8Array(error.buffer),
    new Uint8Array(length.buffer),
  ) === 0;
  return ok ? error[0] : -1;
}
