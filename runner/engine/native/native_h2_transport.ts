/**
 * An HTTP/2 connection's socket on the native path: a non-blocking libc socket driven by the
 * {@linkcode EpollLoop}, as `NativeConnection` drives HTTP/1.1; for h2, TLS by OpenSSL on it
 * (`libssl_tls.ts`, memory BIOs: the socket stays the engine's). A write is one `send` at once;
 * what the socket cannot take waits for EPOLLOUT, and writes made meanwhile queue behind it. Each
 * readiness event is one `recvmsg` whose bytes carry the kernel's receive timestamp, so a stream
 * completes when its response reached the socket, not when the loop (which wakes at most once per
 * gap at high rates) got round to it.
 *
 * @module
 */
import { concatBytes, H2_READ_BYTES, type H2Receiver, type H2Transport } from "../http2/mod.ts";
import type { Clock } from "../types.ts";
import type { EpollHandler, EpollLoop } from "./epoll_loop.ts";
import { NET } from "./libc_net.ts";
import { errnoKind } from "./native_connection.ts";
import { connectOutcome, startConnect } from "./native_socket.ts";
import { TlsClient, type TlsContext } from "./libssl_tls.ts";

/** What a {@linkcode NativeH2Transport} needs. */
export interface NativeH2TransportOptions {
  loop: EpollLoop;
  clock: Clock;
  /** `struct sockaddr_in` / `sockaddr_in6` bytes (see `socketAddress`). */
  socketAddress: Uint8Array;
  /** Called when a socket cannot be created because the process ran out of file descriptors. */
  onOutOfDescriptors?: () => void;
  /** h2 over TLS: the run's TLS context (ALPN `h2`) and the name the certificate must carry. */
  tls?: { context: TlsContext; host: string };
}

/** A socket call that failed: its message names the kind `h2ErrorKind` reads. */
export class NativeSocketError extends Error {
  constructor(readonly errno: number) {
    const kind = errnoKind(errno);
    super(
      kind === "refused"
        ? "connection refused"
        : kind === "reset"
        ? "connection reset"
        : `socket error (errno ${errno})`,
    );
  }
}

/** One h2c socket on the epoll loop. */
export class NativeH2Transport implements H2Transport, EpollHandler {
  readonly #o: NativeH2TransportOptions;
  #fd = -1;
  #connecting: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  #receiver: H2Receiver | undefined;
  readonly #buffer = new Uint8Array(H2_READ_BYTES);
  #start = 0;
  #end = 0;
  /** Bytes waiting for room in the socket, oldest first. */
  #out: Uint8Array[] = [];
  /** The octets in {@linkcode #out}. */
  #waitingBytes = 0;
  #watchingOut = false;
  /** The TLS state, from the TCP connect on (h2 only). */
  #tls: TlsClient | undefined;
  /** Ciphertext as read, before decryption (h2 only). */
  #raw: Uint8Array | undefined;

  constructor(options: NativeH2TransportOptions) {
    this.#o = options;
  }

  connect(receiver: H2Receiver): Promise<void> {
    this.#receiver = receiver;
    const started = startConnect(this.#o.loop.libc, this.#o.socketAddress);
    if (started.errno !== undefined) {
      const code = started.errno;
      if (code === NET.EMFILE || code === NET.ENFILE) this.#o.onOutOfDescriptors?.();
      return Promise.reject(new NativeSocketError(code));
    }
    this.#fd = started.fd;
    if (!this.#o.loop.add(started.fd, NET.EPOLLOUT, this)) {
      this.close();
      return Promise.reject(new Error("the epoll loop refused the socket"));
    }
    return new Promise((resolve, reject) => this.#connecting = { resolve, reject });
  }

  write(bytes: Uint8Array): number {
    if (this.#fd < 0 || this.#connecting) return 0;
    if (this.#tls === undefined) {
      this.#send(bytes);
      return this.#waitingBytes;
    }
    try {
      this.#tls.writePlain(bytes);
    } catch (error) {
      this.#tlsFailed(error);
      return 0;
    }
    this.#sendCiphertext();
    return this.#waitingBytes;
  }

  /** Queues `bytes` for the socket, sending at once when nothing waits before them. */
  #send(bytes: Uint8Array): void {
    this.#out.push(bytes);
    this.#waitingBytes += bytes.length;
    if (this.#out.length === 1) this.#flush();
  }

  #sendCiphertext(): void {
    const ciphertext = this.#tls?.takeCiphertext();
    if (ciphertext !== undefined) this.#send(ciphertext);
  }

  close(): void {
    const fd = this.#fd;
    if (fd < 0) return;
    this.#fd = -1;
    this.#out = [];
    this.#waitingBytes = 0;
    this.#tls?.free();
    this.#tls = undefined;
    this.#o.loop.remove(fd);
    this.#o.loop.libc.symbols.close(fd);
    const connecting = this.#connecting;
    this.#connecting = undefined;
    connecting?.reject(new Error("the HTTP/2 connection closed while connecting"));
  }

  /** Readiness of this socket, from the loop. */
  onEvents(events: number): void {
    if (this.#connecting && this.#tls === undefined) return this.#connected();
    if (this.#connecting) {
      if (this.#out.length > 0 && (events & NET.EPOLLOUT) !== 0) this.#flush();
      if (this.#fd >= 0 && (events & (NET.EPOLLIN | NET.EPOLLHUP | NET.EPOLLERR)) !== 0) {
        this.#readHandshake();
      }
      return;
    }
    if (this.#out.length > 0 && (events & NET.EPOLLOUT) !== 0) this.#flush();
    if (this.#fd >= 0 && (events & (NET.EPOLLIN | NET.EPOLLHUP | NET.EPOLLERR)) !== 0) {
      this.#read();
    }
  }

  #connected(): void {
    const code = connectOutcome(this.#o.loop.libc, this.#fd);
    if (code !== 0) {
      const connecting = this.#connecting!;
      this.#connecting = undefined;
      this.close();
      connecting.reject(new NativeSocketError(code));
      return;
    }
    this.#watchOut(false);
    if (this.#o.tls === undefined) return this.#open();
    try {
      this.#tls = new TlsClient(this.#o.tls.context, this.#o.tls.host);
    } catch (error) {
      return this.#tlsFailed(error);
    }
    this.#raw = new Uint8Array(H2_READ_BYTES);
    this.#advanceHandshake();
  }

  #open(): void {
    const connecting = this.#connecting!;
    this.#connecting = undefined;
    connecting.resolve();
  }

  /** Runs the handshake as far as it goes; open once done and the server chose h2. */
  #advanceHandshake(): void {
    const tls = this.#tls!;
    let state: "done" | "more";
    try {
      state = tls.handshake();
    } catch (error) {
      this.#sendCiphertext(); // the alert, if any
      return this.#tlsFailed(error);
    }
    this.#sendCiphertext();
    if (state === "more") return;
    const alpn = tls.alpnProtocol();
    if (alpn !== "h2") {
      return this.#tlsFailed(
        new Error(`TLS ALPN: the server chose ${alpn ?? "no protocol"}, not h2`),
      );
    }
    this.#open();
  }

  #readHandshake(): void {
    const libc = this.#o.loop.libc;
    const n = libc.recv(this.#fd, this.#raw!, 0);
    if (n < 0) {
      const code = libc.errno();
      if (code === NET.EAGAIN || code === NET.EINTR) return;
      return this.#failed(code);
    }
    if (n === 0) return this.#tlsFailed(new Error("TLS: the server closed during the handshake"));
    this.#tls!.putCiphertext(this.#raw!.subarray(0, n));
    this.#advanceHandshake();
  }

  /** A TLS failure: while connecting, the connect's error; after, the receiver's. */
  #tlsFailed(error: unknown): void {
    const connecting = this.#connecting;
    this.#connecting = undefined;
    this.close();
    if (connecting) connecting.reject(error);
    else this.#receiver?.onError(error);
  }

  /** Sends what is queued; what the socket cannot take waits for EPOLLOUT. */
  #flush(): void {
    const libc = this.#o.loop.libc;
    const chunk = this.#out.length === 1 ? this.#out[0] : concatBytes(this.#out);
    const n = libc.send(this.#fd, chunk, NET.MSG_NOSIGNAL);
    if (n < 0) {
      const code = libc.errno();
      if (code !== NET.EAGAIN) return this.#failed(code);
      this.#out = [chunk];
    } else {
      this.#out = n < chunk.length ? [chunk.subarray(n)] : [];
      this.#waitingBytes = chunk.length - n;
    }
    const waiting = this.#out.length > 0;
    if (waiting !== this.#watchingOut) this.#watchOut(waiting);
  }

  #watchOut(on: boolean): void {
    this.#watchingOut = on;
    this.#o.loop.modify(this.#fd, on ? NET.EPOLLIN | NET.EPOLLOUT : NET.EPOLLIN);
  }

  #read(): void {
    const libc = this.#o.loop.libc;
    const tls = this.#tls;
    this.#compact();
    const buffer = this.#buffer;
    const n = libc.recvTimed(this.#fd, tls ? this.#raw! : buffer.subarray(this.#end), 0);
    if (n < 0) {
      const code = libc.errno();
      if (code === NET.EAGAIN || code === NET.EINTR) return;
      return this.#failed(code);
    }
    const receiver = this.#receiver!;
    if (n === 0) {
      this.close();
      return receiver.onEnd();
    }
    // When the bytes reached the socket, placed on the engine clock; never after now.
    const nowMs = this.#o.clock.nowMs();
    const arrivedMs = Math.min(nowMs, this.#o.loop.arrivalMs(libc.arrivalRealMs));
    const atMs = Number.isNaN(arrivedMs) ? nowMs : arrivedMs;
    if (tls === undefined) {
      this.#end += n;
      return this.#deliver(atMs);
    }
    tls.putCiphertext(this.#raw!.subarray(0, n));
    // Decrypted records may outgrow the buffer: hand over what fits, then decrypt the rest.
    for (let more = true; more && this.#fd >= 0;) {
      let state: "drained" | "full" | "ended";
      try {
        state = this.#decrypt(tls);
      } catch (error) {
        return this.#tlsFailed(error);
      }
      if (state === "ended") {
        this.close();
        return receiver.onEnd();
      }
      this.#deliver(atMs);
      this.#compact();
      more = state === "full";
    }
    if (this.#fd >= 0) this.#sendCiphertext(); // a key update or an alert the reads produced
  }

  /** Moves the bytes not yet taken to the buffer's start when the buffer is full. */
  #compact(): void {
    if (this.#end < this.#buffer.length) return;
    this.#buffer.copyWithin(0, this.#start, this.#end);
    this.#end -= this.#start;
    this.#start = 0;
  }

  /** Decrypts into the read buffer until no whole record is left or the buffer is full. */
  #decrypt(tls: TlsClient): "drained" | "full" | "ended" {
    const buffer = this.#buffer;
    while (this.#end < buffer.length) {
      const got = tls.readPlain(buffer.subarray(this.#end));
      if (got === 0) return "drained";
      if (got < 0) return "ended";
      this.#end += got;
    }
    return "full";
  }

  /** Hands the bytes read to the receiver, `atMs` their arrival. */
  #deliver(atMs: number): void {
    this.#start += this.#receiver!.onBytes(this.#buffer, this.#start, this.#end, atMs);
    if (this.#start === this.#end) this.#start = this.#end = 0;
  }

  #failed(errno: number): void {
    this.close();
    this.#receiver?.onError(new NativeSocketError(errno));
  }
}
