/**
 * The native path's TLS: OpenSSL 3 (`libssl.so.3`, `libcrypto.so.3`) through FFI, the one file
 * that talks to it. A {@linkcode TlsClient} is TLS without I/O: ciphertext the socket read goes in,
 * plaintext comes out, plaintext to send goes in, ciphertext to write comes out (memory BIOs), so
 * the socket, its epoll loop and its receive timestamps stay the engine's. The server's certificate
 * is verified against the system's store and the certificates the run trusts besides
 * (`--ca-cert`), for the target's name or IP address; ALPN is offered as asked. Where the library
 * cannot be opened {@linkcode openLibSsl} returns undefined and TLS stays on Deno's sockets.
 *
 * @module
 */

const SSL_SYMBOLS = {
  TLS_client_method: { parameters: [], result: "pointer" },
  SSL_CTX_new: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_free: { parameters: ["pointer"], result: "void" },
  SSL_CTX_set_verify: { parameters: ["pointer", "i32", "pointer"], result: "void" },
  SSL_CTX_set_default_verify_paths: { parameters: ["pointer"], result: "i32" },
  SSL_CTX_get_cert_store: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_set_alpn_protos: { parameters: ["pointer", "buffer", "u32"], result: "i32" },
  SSL_new: { parameters: ["pointer"], result: "pointer" },
  SSL_free: { parameters: ["pointer"], result: "void" },
  SSL_set_connect_state: { parameters: ["pointer"], result: "void" },
  SSL_set_bio: { parameters: ["pointer", "pointer", "pointer"], result: "void" },
  SSL_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  SSL_set1_host: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_get0_param: { parameters: ["pointer"], result: "pointer" },
  SSL_do_handshake: { parameters: ["pointer"], result: "i32" },
  SSL_get_error: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_read_ex: { parameters: ["pointer", "buffer", "usize", "buffer"], result: "i32" },
  SSL_write_ex: { parameters: ["pointer", "buffer", "usize", "buffer"], result: "i32" },
  SSL_get0_alpn_selected: { parameters: ["pointer", "buffer", "buffer"], result: "void" },
  SSL_get_verify_result: { parameters: ["pointer"], result: "i64" },
} as const;

const CRYPTO_SYMBOLS = {
  BIO_s_mem: { parameters: [], result: "pointer" },
  BIO_new: { parameters: ["pointer"], result: "pointer" },
  BIO_free: { parameters: ["pointer"], result: "i32" },
  BIO_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  BIO_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  BIO_ctrl_pending: { parameters: ["pointer"], result: "usize" },
  BIO_new_mem_buf: { parameters: ["buffer", "i32"], result: "pointer" },
  PEM_read_bio_X509: {
    parameters: ["pointer", "pointer", "pointer", "pointer"],
    result: "pointer",
  },
  X509_STORE_add_cert: { parameters: ["pointer", "pointer"], result: "i32" },
  X509_free: { parameters: ["pointer"], result: "void" },
  X509_VERIFY_PARAM_set1_ip_asc: { parameters: ["pointer", "buffer"], result: "i32" },
  X509_verify_cert_error_string: { parameters: ["i64"], result: "pointer" },
  ERR_get_error: { parameters: [], result: "u64" },
  ERR_error_string_n: { parameters: ["u64", "buffer", "usize"], result: "void" },
  ERR_clear_error: { parameters: [], result: "void" },
} as const;

const SSL_VERIFY_PEER = 1;
const SSL_CTRL_SET_TLSEXT_HOSTNAME = 55;
const TLSEXT_NAMETYPE_HOST_NAME = 0;
const SSL_ERROR_WANT_READ = 2;
const SSL_ERROR_WANT_WRITE = 3;
const SSL_ERROR_ZERO_RETURN = 6;

type Ssl = Deno.DynamicLibrary<typeof SSL_SYMBOLS>["symbols"];
type Crypto = Deno.DynamicLibrary<typeof CRYPTO_SYMBOLS>["symbols"];

/** OpenSSL, opened. */
export interface LibSsl {
  ssl: Ssl;
  crypto: Crypto;
}

let opened: LibSsl | null | undefined;

/** libssl and libcrypto 3, opened once; undefined where they or FFI are not available. */
export function openLibSsl(): LibSsl | undefined {
  if (opened !== undefined) return opened ?? undefined;
  try {
    const crypto = Deno.dlopen("libcrypto.so.3", CRYPTO_SYMBOLS).symbols;
    const ssl = Deno.dlopen("libssl.so.3", SSL_SYMBOLS).symbols;
    opened = { ssl, crypto };
  } catch {
    opened = null;
  }
  return opened ?? undefined;
}

/** A C string: `text` and a terminating NUL. */
function cString(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${text}\0`);
}

/** The oldest queued OpenSSL error as text (and the queue cleared), or `fallback`. */
function lastError(lib: LibSsl, fallback: string): string {
  const code = lib.crypto.ERR_get_error();
  lib.crypto.ERR_clear_error();
  if (code === 0n) return fallback;
  const text = new Uint8Array(256);
  lib.crypto.ERR_error_string_n(code, text, BigInt(text.length));
  return new TextDecoder().decode(text.subarray(0, text.indexOf(0)));
}

/** A client context: the trust store and the ALPN offered, shared by a run's connections. */
export class TlsContext {
  readonly lib: LibSsl;
  readonly ctx: Deno.PointerObject;

  /** `caCerts`: PEM certificates trusted besides the system's; `alpn`: protocols offered. */
  constructor(lib: LibSsl, caCerts: readonly string[], alpn: readonly string[]) {
    this.lib = lib;
    const { ssl, crypto } = lib;
    const ctx = ssl.SSL_CTX_new(ssl.TLS_client_method());
    if (ctx === null) throw new Error(lastError(lib, "SSL_CTX_new failed"));
    this.ctx = ctx;
    ssl.SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, null);
    ssl.SSL_CTX_set_default_verify_paths(ctx);
    const store = ssl.SSL_CTX_get_cert_store(ctx);
    for (const pem of caCerts) {
      for (
        const block of pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? []
      ) {
        const bytes = new TextEncoder().encode(block);
        const bio = crypto.BIO_new_mem_buf(bytes, bytes.length);
        const x509 = crypto.PEM_read_bio_X509(bio, null, null, null);
        crypto.BIO_free(bio);
        if (x509 === null) throw new Error(lastError(lib, "a --ca-cert certificate did not parse"));
        crypto.X509_STORE_add_cert(store, x509);
        crypto.X509_free(x509);
      }
    }
    const wire = alpn.flatMap((p) => [p.length, ...new TextEncoder().encode(p)]);
    if (ssl.SSL_CTX_set_alpn_protos(ctx, new Uint8Array(wire), wire.length) !== 0) {
      throw new Error(lastError(lib, "SSL_CTX_set_alpn_protos failed"));
    }
  }

  /** Frees the context (after its clients). */
  free(): void {
    this.lib.ssl.SSL_CTX_free(this.ctx);
  }
}

/** One TLS connection's state, without I/O. */
export class TlsClient {
  readonly #lib: LibSsl;
  readonly #ssl: Deno.PointerObject;
  readonly #rbio: Deno.PointerObject;
  readonly #wbio: Deno.PointerObject;
  readonly #count = new BigUint64Array(1);
  readonly #countBytes = new Uint8Array(this.#count.buffer);
  #freed = false;

  /** A client for `host` (a name, or an IP address, which is then what the certificate must name). */
  constructor(context: TlsContext, host: string) {
    const lib = context.lib;
    this.#lib = lib;
    const { ssl, crypto } = lib;
    const s = ssl.SSL_new(context.ctx);
    if (s === null) throw new Error(lastError(lib, "SSL_new failed"));
    this.#ssl = s;
    this.#rbio = crypto.BIO_new(crypto.BIO_s_mem())!;
    this.#wbio = crypto.BIO_new(crypto.BIO_s_mem())!;
    ssl.SSL_set_bio(s, this.#rbio, this.#wbio); // the SSL owns both BIOs from here
    ssl.SSL_set_connect_state(s);
    const ip = /^[\d.]+$|:/.test(host);
    if (ip) crypto.X509_VERIFY_PARAM_set1_ip_asc(ssl.SSL_get0_param(s), cString(host));
    else {
      ssl.SSL_ctrl(
        s,
        SSL_CTRL_SET_TLSEXT_HOSTNAME,
        BigInt(TLSEXT_NAMETYPE_HOST_NAME),
        cString(host),
      );
      ssl.SSL_set1_host(s, cString(host));
    }
  }

  /**
   * Advances the handshake: `done`, `more` (send what {@linkcode takeCiphertext} gives and feed
   * the answer), or throws an `Error` naming why it failed (a certificate not trusted, say).
   */
  handshake(): "done" | "more" {
    const { ssl, crypto } = this.#lib;
    const r = ssl.SSL_do_handshake(this.#ssl);
    if (r === 1) return "done";
    const e = ssl.SSL_get_error(this.#ssl, r);
    if (e === SSL_ERROR_WANT_READ || e === SSL_ERROR_WANT_WRITE) return "more";
    const verify = Number(ssl.SSL_get_verify_result(this.#ssl));
    const why = verify !== 0
      ? `certificate verify failed: ${
        Deno.UnsafePointerView.getCString(crypto.X509_verify_cert_error_string(BigInt(verify))!)
      }`
      : lastError(this.#lib, `TLS handshake failed (SSL error ${e})`);
    throw new Error(`TLS: ${why}`);
  }

  /** The protocol the server chose by ALPN, or null. */
  alpnProtocol(): string | null {
    const data = new BigUint64Array(1);
    const length = new Uint32Array(1);
    this.#lib.ssl.SSL_get0_alpn_selected(
      this.#ssl,
      new Uint8Array(data.buffer),
      new Uint8Array(length.buffer),
    );
    if (length[0] === 0 || data[0] === 0n) return null;
    const pointer = Deno.UnsafePointer.create(data[0])!;
    return new TextDecoder().decode(
      new Uint8Array(Deno.UnsafePointerView.getArrayBuffer(pointer, length[0])).slice(),
    );
  }

  /** Ciphertext the socket read. */
  putCiphertext(bytes: Uint8Array): void {
    this.#lib.crypto.BIO_write(this.#rbio, bytes, bytes.length);
  }

  /** Ciphertext to send, or undefined when there is none. */
  takeCiphertext(): Uint8Array | undefined {
    const pending = Number(this.#lib.crypto.BIO_ctrl_pending(this.#wbio));
    if (pending === 0) return undefined;
    const out = new Uint8Array(pending);
    const n = this.#lib.crypto.BIO_read(this.#wbio, out, pending);
    return n === pending ? out : out.subarray(0, Math.max(0, n));
  }

  /**
   * Moves up to `into.length` octets of ciphertext to send into `into` (one call, no allocation):
   * how many, 0 when there is none.
   */
  takeCiphertextInto(into: Uint8Array): number {
    return Math.max(0, this.#lib.crypto.BIO_read(this.#wbio, into, into.length));
  }

  /**
   * Decrypts into `into`: the plaintext bytes written, 0 when no whole record is buffered, -1 when
   * the server closed TLS (close_notify). Throws on a TLS error.
   */
  readPlain(into: Uint8Array): number {
    const { ssl } = this.#lib;
    if (ssl.SSL_read_ex(this.#ssl, into, BigInt(into.length), this.#countBytes) === 1) {
      return Number(this.#count[0]);
    }
    const e = ssl.SSL_get_error(this.#ssl, 0);
    if (e === SSL_ERROR_WANT_READ || e === SSL_ERROR_WANT_WRITE) return 0;
    if (e === SSL_ERROR_ZERO_RETURN) return -1;
    throw new Error(`TLS: ${lastError(this.#lib, `read failed (SSL error ${e})`)}`);
  }

  /** Encrypts `bytes` (take the result with {@linkcode takeCiphertext}). Throws on a TLS error. */
  writePlain(bytes: Uint8Array): void {
    const { ssl } = this.#lib;
    if (ssl.SSL_write_ex(this.#ssl, bytes, BigInt(bytes.length), this.#countBytes) !== 1) {
      throw new Error(`TLS: ${lastError(this.#lib, "write failed")}`);
    }
  }

  /** Frees the connection's state (its BIOs with it). */
  free(): void {
    if (this.#freed) return;
    this.#freed = true;
    this.#lib.ssl.SSL_free(this.#ssl);
  }
}
