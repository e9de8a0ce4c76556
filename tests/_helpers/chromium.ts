/**
 * A small Chrome DevTools Protocol client for browser tests: launches headless Chromium (the
 * Debian package `chromium`) on a private profile with its network cut off from every host,
 * opens pages over one WebSocket (flattened sessions), records their console, exception, log and
 * network events, and stops the browser by its PID when disposed.
 *
 * As a script it takes full-page screenshots:
 * `deno run -A tests/_helpers/chromium.ts screenshot <in.html> <out.png> [widthPx]`.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Where Debian installs Chromium; `CHROMIUM` in the environment overrides it.
 *
 * @example
 * ```ts
 * import { CHROMIUM_PATH } from "./chromium.ts";
 * CHROMIUM_PATH; // "/usr/bin/chromium"
 * ```
 */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM") ?? "/usr/bin/chromium";

/** Longest wait for the browser to start or for one protocol answer. */
const TIMEOUT_MS = 30_000;

/** One protocol event as received: its method, parameters and the session it belongs to. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface CdpMessage extends Partial<CdpEvent> {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * One page (tab) of the browser: commands go to its session, its events collect in `events`.
 *
 * @example
 * ```ts
 * import { Chromium } from "./chromium.ts";
 * await using browser = await Chromium.launch();
 * const page = await browser.newPage();
 * await page.navigate("file:///tmp/report.html");
 * await page.evaluate("document.title");
 * ```
 */
export class Page {
  /** Every event of this page, in arrival order. */
  readonly events: CdpEvent[] = [];

  constructor(
    private readonly browser: Chromium,
    readonly sessionId: string,
  ) {}

  /** Sends a command to this page's session and returns its result. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.browser.send(method, params, this.sessionId);
  }

  /** Loads a URL and waits for its load event. */
  async navigate(url: string): Promise<void> {
    const seen = this.events.length;
    const answer = await this.send("Page.navigate", { url });
    if (typeof answer.errorText === "string") throw new Error(`${url}: ${answer.errorText}`);
    await this.browser.waitFor(
      () => this.events.slice(seen).some((e) => e.method === "Page.loadEventFired"),
      `the load event of ${url}`,
    );
  }

  /** Evaluates an expression in the page (promises awaited) and returns its value as JSON. */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const answer = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (answer.exceptionDetails) {
      throw new Error(`evaluation failed: ${JSON.stringify(answer.exceptionDetails)}`);
    }
    return (answer.result as { value: T }).value;
  }

  /** A PNG of the whole page, beyond the viewport. */
  async screenshotPng(): Promise<Uint8Array> {
    const metrics = await this.send("Page.getLayoutMetrics");
    const size = metrics.cssContentSize as { width: number; height: number };
    const answer = await this.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: size.width, height: size.height, scale: 1 },
    });
    return Uint8Array.from(atob(answer.data as string), (c) => c.charCodeAt(0));
  }
}

/**
 * A headless Chromium process and its protocol connection. Dispose it (`await using`) to close
 * the browser, kill it by PID if it does not exit, and delete its profile.
 *
 * @example
 * ```ts
 * import { Chromium } from "./chromium.ts";
 * await using browser = await Chromium.launch({ widthPx: 1200 });
 * const page = await browser.newPage();
 * ```
 */
export class Chromium implements AsyncDisposable {
  #nextId = 1;
  readonly #pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  readonly #pages = new Map<string, Page>();
  #closed = false;

  private constructor(
    private readonly child: Deno.ChildProcess,
    private readonly socket: WebSocket,
    private readonly profileDir: string,
    private readonly stderrDone: Promise<void>,
  ) {
    socket.onmessage = (m) => this.#receive(JSON.parse(String(m.data)) as CdpMessage);
    socket.onclose = () => this.#failPending(new Error("the browser connection closed"));
  }

  /** Starts Chromium and connects to it; the window is `widthPx` × `heightPx` CSS pixels. */
  static async launch(options: { widthPx?: number; heightPx?: number } = {}): Promise<Chromium> {
    const profileDir = await Deno.makeTempDir({ prefix: "tailgate-chromium-" });
    const child = new Deno.Command(CHROMIUM_PATH, {
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--remote-debugging-port=0",
        `--user-data-dir=${profileDir}`,
        `--window-size=${options.widthPx ?? 1280},${options.heightPx ?? 900}`,
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--no-pings",
        "--hide-scrollbars",
        "--mute-audio",
        // No host name resolves: the browser cannot reach any machine, whatever a page asks.
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      const { url, rest } = await devtoolsUrl(child.stderr);
      const socket = new WebSocket(url);
      await new Promise<void>((ok, fail) => {
        socket.onopen = () => ok();
        socket.onerror = (e) => fail(new Error(`cannot connect to ${url}: ${String(e)}`));
      });
      return new Chromium(child, socket, profileDir, rest);
    } catch (e) {
      await stopProcess(child, 0);
      await Deno.remove(profileDir, { recursive: true }).catch(() => {});
      throw e;
    }
  }

  /** Opens a blank page and enables the Page, Runtime, Log and Network domains on it. */
  async newPage(): Promise<Page> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId as string);
    this.#pages.set(page.sessionId, page);
    for (const domain of ["Page", "Runtime", "Log", "Network"]) await page.send(`${domain}.enable`);
    return page;
  }

  /** Sends a command (to a page's session when given) and waits for its answer. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new Error("the browser is closed"));
    const id = this.#nextId++;
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        fail(new Error(`no answer to ${method} within ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      this.#pending.set(id, {
        resolve: (r) => (clearTimeout(timer), ok(r)),
        reject: (e) => (clearTimeout(timer), fail(e)),
      });
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Polls `done` every 20 ms until it holds; fails after the timeout. */
  async waitFor(done: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + TIMEOUT_MS;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Closes the browser, kills it by PID if it does not exit in 5 s, and deletes its profile. */
  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#closed) return;
    try {
      await withTimeout(this.send("Browser.close").catch(() => {}), 2_000, undefined);
    } finally {
      this.#closed = true;
      this.socket.close();
      await stopProcess(this.child);
      await this.stderrDone.catch(() => {});
      await Deno.remove(this.profileDir, { recursive: true }).catch(() => {});
    }
  }

  #receive(message: CdpMessage): void {
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error) pending?.reject(new Error(message.error.message));
      else pending?.resolve(message.result ?? {});
      return;
    }
    if (message.method === undefined) return;
    if (message.sessionId === undefined) return;
    this.#pages.get(message.sessionId)?.events.push({
      method: message.method,
      params: message.params ?? {},
      sessionId: message.sessionId,
    });
  }

  #failPending(error: Error): void {
    for (const p of this.#pending.values()) p.reject(error);
    this.#pending.clear();
  }
}

/**
 * Reads Chromium's stderr until it names its DevTools WebSocket URL; the rest of stderr is then
 * drained in the background (a full pipe would stall the browser).
 */
async function devtoolsUrl(
  stderr: ReadableStream<Uint8Array>,
): Promise<{ url: string; rest: Promise<void> }> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    const chunk = await withTimeout(
      reader.read(),
      Math.max(1, deadline - Date.now()),
      "timeout" as const,
    );
    if (chunk === "timeout" || chunk.done) break;
    text += chunk.value;
    const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
    if (m) {
      const rest = (async () => {
        while (!(await reader.read()).done) { /* discard */ }
      })();
      return { url: m[1], rest };
    }
  }
  reader.cancel().catch(() => {});
  throw new Error(`Chromium did not report its DevTools URL; stderr:\n${text.slice(-2000)}`);
}

/** `promise`'s value, or `fallback` after `ms` (the timer is cleared either way). */
async function withTimeout<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits up to `graceMs` for the process to exit by itself, then kills it by its PID. */
async function stopProcess(child: Deno.ChildProcess, graceMs = 5_000): Promise<void> {
  const exited = child.status.then(() => true);
  const within = (ms: number) => withTimeout(exited, ms, false);
  if (await within(graceMs)) return;
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    try {
      child.kill(signal);
    } catch {
      return; // already gone
    }
    if (await within(3_000)) return;
  }
}

/**
 * Renders an HTML file in Chromium and writes a full-page PNG of it.
 *
 * @example
 * ```ts
 * import { screenshotFile } from "./chromium.ts";
 * await screenshotFile("tailgate-out/report.html", "docs/report.png", 1200);
 * ```
 */
export async function screenshotFile(
  inPath: string,
  outPath: string,
  widthPx = 1280,
): Promise<void> {
  await using browser = await Chromium.launch({ widthPx });
  const page = await browser.newPage();
  await page.navigate(pathToFileURL(resolve(inPath)).href);
  await Deno.writeFile(outPath, await page.screenshotPng());
}

if (import.meta.main) {
  const [command, inPath, outPath, width] = Deno.args;
  if (command !== "screenshot" || !inPath || !outPath) {
    console.error(
      "usage: deno run -A tests/_helpers/chromium.ts screenshot <in.html> <out.png> [widthPx]",
    );
    Deno.exit(2);
  }
  await screenshotFile(inPath, outPath, width ? Number(width) : undefined);
  console.error(`wrote ${outPath}`);
}
