/**
 * The engine's native I/O boundary: the few libc calls a non-blocking HTTP/1.1 client and an epoll
 * loop need (socket, connect, send, recv and recvmsg, close, epoll, prctl, clock_gettime,
 * clock_nanosleep), opened once through
 * `Deno.dlopen("libc.so.6")`. Linux only, and only with `--allow-ffi`; {@linkcode openLibcNet}
 * returns undefined elsewhere and the engine uses Deno's sockets instead. Every other file talks
 * to libc through this one, so the native path has one place to audit.
 *
 * @module
 */

/** Linux constants (the same on x86_64 and aarch64). */
export const NET = {
  AF_INET: 2,
  AF_INET6: 10,
  SOCK_STREAM: 1,
  SOCK_NONBLOCK: 0o4000,
  SOCK_CLOEXEC: 0o2000000,
  IPPROTO_TCP: 6,
  TCP_NODELAY: 1,
  SOL_SOCKET: 1,
  SO_ERROR: 4,
  /** `SO_TIMESTAMPNS` (the "old" one, a 64-bit timespec on 64-bit Linux); also its cmsg type. */
  SO_TIMESTAMPNS: 35,
  CLOCK_REALTIME: 0,
  CLOCK_MONOTONIC: 1,
  MSG_NOSIGNAL: 0x4000,
  EPOLLIN: 0x1,
  EPOLLOUT: 0x4,
  EPOLLERR: 0x8,
  EPOLLHUP: 0x10,
  EPOLL_CTL_ADD: 1,
  EPOLL_CTL_DEL: 2,
  EPOLL_CTL_MOD: 3,
  EPOLL_CLOEXEC: 0o2000000,
  EINTR: 4,
  EMFILE: 24,
  ENFILE: 23,
  EAGAIN: 11,
  EINPROGRESS: 115,
  ECONNREFUSED: 111,
  ECONNRESET: 104,
  ECONNABORTED: 103,
  EPIPE: 32,
  PR_SET_TIMERSLACK: 29,
} as const;

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  recv: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  recvmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
  clock_nanosleep: { parameters: ["i32", "i32", "buffer", "pointer"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  epoll_create1: { parameters: ["i32"], result: "i32" },
  epoll_ctl: { parameters: ["i32", "i32", "i32", "buffer"], result: "i32" },
  epoll_pwait2: { parameters: ["i32", "buffer", "i32", "buffer", "pointer"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
} as const;

/** The libc calls, as loaded; see `man 2 <name>`. Negative results mean: read {@linkcode LibcNet.errno}. */
export type LibcSymbols = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

/** libc's network calls and how to read `errno` after one failed. */
export interface LibcNet {
  readonly symbols: LibcSymbols;
  /** `send(fd, bytes, bytes.length, flags)`: bytes written, or -1. */
  send(fd: number, bytes: Uint8Array, flags: number): number;
  /** `recv(fd, into, into.length, flags)`: bytes read, 0 at end of stream, or -1. */
  recv(fd: number, into: Uint8Array, flags: number): number;
  /**
   * `recvmsg` into `into`, also taking the kernel's receive timestamp (sockets with
   * {@linkcode LibcNet.timestampArrivals} on): bytes read, 0 at end of stream, or -1. After a
   * read, {@linkcode LibcNet.arrivalRealMs} holds when the last byte read reached the socket.
   */
  recvTimed(fd: number, into: Uint8Array, flags: number): number;
  /**
   * The last {@linkcode LibcNet.recvTimed}'s arrival time on {@linkcode LibcNet.realtimeMs}'s
   * scale, or NaN when the kernel gave none.
   */
  readonly arrivalRealMs: number;
  /** Asks the kernel to timestamp what arrives on `fd` (`SO_TIMESTAMPNS`); false if refused. */
  timestampArrivals(fd: number): boolean;
  /**
   * `CLOCK_REALTIME` in ms since a second fixed at load (the scale of receive timestamps), read
   * next to the engine's clock to place arrivals on it.
   */
  realtimeMs(): number;
  /** Sleeps the thread for `ms` (`clock_nanosleep` on the monotonic clock, relative). */
  sleepMs(ms: number): void;
  /** The calling thread's `errno`, read right after the failed call. */
  errno(): number;
  /** Bytes of one `struct epoll_event` (12 on x86_64, where it is packed; 16 elsewhere). */
  readonly epollEventBytes: number;
  /** Offset of the event's 64-bit data field within it. */
  readonly epollDataOffset: number;
}

let loaded: LibcNet | null | undefined;

/**
 * libc's network calls, loaded once per thread; undefined when not on Linux or when FFI is not
 * permitted.
 */
export function openLibcNet(): LibcNet | undefined {
  if (loaded !== undefined) return loaded ?? undefined;
  loaded = null;
  if (Deno.build.os !== "linux") return undefined;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return undefined;
    const lib = Deno.dlopen("libc.so.6", SYMBOLS);
    const symbols = lib.symbols;
    // glibc may have epoll_pwait2 while the kernel (before 5.11) does not: try it once.
    const probe = symbols.epoll_create1(NET.EPOLL_CLOEXEC);
    const works = probe >= 0 &&
      symbols.epoll_pwait2(probe, new Uint8Array(16), 1, new Uint8Array(16), null) >= 0;
    if (probe >= 0) symbols.close(probe);
    if (!works) {
      lib.close();
      return undefined;
    }
    const packed = Deno.build.arch === "x86_64";
    // Deno's FFI takes a number for a 64-bit parameter at run time though its types say bigint:
    // passing the length as a number saves a BigInt per call on the hot path.
    const send = symbols.send as unknown as (
      fd: number,
      b: Uint8Array,
      n: number,
      f: number,
    ) => number;
    const recv = symbols.recv as unknown as (
      fd: number,
      b: Uint8Array,
      n: number,
      f: number,
    ) => number;
    // Assigned onto the timed-receive part, which updates its own `arrivalRealMs` per read.
    loaded = Object.assign(timedReceive(symbols), {
      symbols,
      send: (fd: number, bytes: Uint8Array, flags: number) =>
        Number(send(fd, bytes, bytes.length, flags)),
      recv: (fd: number, into: Uint8Array, flags: number) =>
        Number(recv(fd, into, into.length, flags)),
      errno: () => {
        const pointer = symbols.__errno_location();
        return pointer === null ? 0 : new Deno.UnsafePointerView(pointer).getInt32();
      },
      epollEventBytes: packed ? 12 : 16,
      epollDataOffset: packed ? 4 : 8,
    });
  } catch {
    loaded = null;
  }
  return loaded ?? undefined;
}

type TimedParts = Pick<
  LibcNet,
  "recvTimed" | "arrivalRealMs" | "timestampArrivals" | "realtimeMs" | "sleepMs"
>;

/**
 * recvmsg with a receive timestamp, allocation-free: one arena per thread holds the `msghdr`, its
 * one `iovec` and the control buffer (x86_64 and aarch64 layouts: 64-bit pointers and sizes).
 * The iovec points into the caller's buffer, whose address is read once per backing buffer
 * (V8 never moves a typed array's off-heap store; read buffers are far above the on-heap size)
 * and remembered: each connection reads into its own buffer, so a cache of the last one alone
 * missed on almost every read, and `Deno.UnsafePointer.of` allocates a typed array, a pointer
 * object and an entry in Deno's pointer-to-buffer WeakMap each time (20k calls a second at 20k/s).
 */
function timedReceive(symbols: LibcSymbols): TimedParts {
  const arena = new ArrayBuffer(256);
  const header = new Uint8Array(arena, 0, 56);
  const view = new DataView(arena);
  const IOV = 64, CONTROL = 96, CONTROL_BYTES = 64, TIMESPEC = CONTROL + 16;
  const arenaAddress = addressOf(arena);
  writeAddress(view, 16, arenaAddress + IOV); // msg_iov
  view.setUint32(24, 1, true); // msg_iovlen
  writeAddress(view, 32, arenaAddress + CONTROL); // msg_control
  const clockBytes = new Uint8Array(16);
  const clockView = new DataView(clockBytes.buffer);
  symbols.clock_gettime(NET.CLOCK_REALTIME, clockBytes);
  const baseSec = clockView.getUint32(0, true);
  const sleepBytes = new Uint8Array(16);
  const sleepView = new DataView(sleepBytes.buffer);
  const recvmsg = symbols.recvmsg as unknown as (fd: number, m: Uint8Array, f: number) => number;
  let buffer: ArrayBufferLike | undefined;
  let bufferAddress = 0;
  const addresses = new WeakMap<ArrayBufferLike, number>();
  const parts: TimedParts = {
    arrivalRealMs: NaN,
    recvTimed(fd, into, flags) {
      if (into.buffer !== buffer) {
        buffer = into.buffer;
        let address = addresses.get(buffer);
        if (address === undefined) {
          address = addressOf(buffer);
          addresses.set(buffer, address);
        }
        bufferAddress = address;
      }
      writeAddress(view, IOV, bufferAddress + into.byteOffset);
      view.setUint32(IOV + 8, into.length, true);
      view.setUint32(IOV + 12, 0, true);
      view.setUint32(40, CONTROL_BYTES, true); // msg_controllen, reset by every call
      view.setUint32(44, 0, true);
      const n = Number(recvmsg(fd, header, flags));
      (parts as { arrivalRealMs: number }).arrivalRealMs = n > 0 &&
          view.getUint32(40, true) >= 32 && view.getInt32(CONTROL + 8, true) === NET.SOL_SOCKET &&
          view.getInt32(CONTROL + 12, true) === NET.SO_TIMESTAMPNS
        ? (view.getUint32(TIMESPEC, true) - baseSec) * 1000 +
          view.getUint32(TIMESPEC + 8, true) / 1e6
        : NaN;
      return n;
    },
    timestampArrivals: (fd) =>
      symbols.setsockopt(fd, NET.SOL_SOCKET, NET.SO_TIMESTAMPNS, ONE_I32, 4) === 0,
    realtimeMs() {
      symbols.clock_gettime(NET.CLOCK_REALTIME, clockBytes);
      return (clockView.getUint32(0, true) - baseSec) * 1000 + clockView.getUint32(8, true) / 1e6;
    },
    sleepMs(ms) {
      const ns = Math.max(0, Math.round(ms * 1e6));
      sleepView.setUint32(0, Math.floor(ns / 1e9), true);
      sleepView.setUint32(8, ns % 1e9, true);
      symbols.clock_nanosleep(NET.CLOCK_MONOTONIC, 0, sleepBytes, null);
    },
  };
  return parts;
}

const ONE_I32 = new Uint8Array(new Int32Array([1]).buffer);

function addressOf(buffer: ArrayBufferLike): number {
  const pointer = Deno.UnsafePointer.of(buffer as ArrayBuffer);
  return pointer === null ? 0 : Number(Deno.UnsafePointer.value(pointer));
}

/** Writes a 64-bit address as two 32-bit halves (no BigInt). */
function writeAddress(view: DataView, at: number, address: number): void {
  view.setUint32(at, address % 0x1_0000_0000, true);
  view.setUint32(at + 4, Math.floor(address / 0x1_0000_0000), true);
}

/**
 * A `struct sockaddr_in` or `sockaddr_in6` for a numeric IPv4 or IPv6 address and a port.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { socketAddress } from "./libc_net.ts";
 * assert.equal(socketAddress("127.0.0.1", 8080).length, 16);
 * assert.equal(socketAddress("::1", 8080).length, 28);
 * ```
 */
export function socketAddress(address: string, port: number): Uint8Array {
  const v6 = address.includes(":");
  const bytes = new Uint8Array(v6 ? 28 : 16);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, v6 ? NET.AF_INET6 : NET.AF_INET, true);
  view.setUint16(2, port, false);
  if (!v6) {
    const parts = address.split(".").map(Number);
    if (parts.length !== 4 || parts.some((p) => !(p >= 0 && p <= 255))) {
      throw new RangeError(`not an IPv4 address: ${address}`);
    }
    bytes.set(parts, 4);
    return bytes;
  }
  const groups = ipv6Groups(address);
  groups.forEach((g, i) => view.setUint16(8 + 2 * i, g, false));
  return bytes;
}

function ipv6Groups(address: string): number[] {
  const [head, tail, extra] = address.split("::");
  if (extra !== undefined) throw new RangeError(`not an IPv6 address: ${address}`);
  const parse = (s: string) =>
    s === "" ? [] : s.split(":").map((g) => /^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...new Array(Math.max(0, fill)).fill(0), ...right];
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) {
    throw new RangeError(`not an IPv6 address (IPv4-mapped forms are not supported): ${address}`);
  }
  return groups;
}
