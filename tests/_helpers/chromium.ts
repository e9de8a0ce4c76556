/**
 * The browser tests' Chromium: headless (the Debian package `chromium`, through puppeteer-core),
 * on a private profile, with its network cut off from every host. A page records its console,
 * exception, log and network events as Chrome DevTools Protocol events, takes raw protocol
 * commands, and the browser is stopped by its PID when disposed.
 *
 * As a script it takes full-page screenshots:
 * `deno run -A tests/_helpers/chromium.ts screenshot <in.html> <out.png> [widthPx]`.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, type CDPSession, launchBrowser, type PuppeteerPage } from "./_puppeteer.ts";

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

/** Longest wait for the browser to start, a page to load or one protocol answer. */
const TIMEOUT_MS = 30_000;

/** The protocol events a page records (the tests read console errors, exceptions and requests). */
const RECORDED = [
  "Runtime.exceptionThrown",
  "Runtime.consoleAPICalled",
  "Log.entryAdded",
  "Network.requestWillBeSent",
] as const;

/** One protocol event as received: its method and parameters. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

/**
 * One page (tab) of the browser: protocol commands go to its session, its events collect in
 * `events`.
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
  /** Every recorded event of this page, in arrival order. */
  readonly events: CdpEvent[] = [];

  constructor(private readonly page: PuppeteerPage, private readonly session: CDPSession) {
    for (const method of RECORDED) {
      session.on(method, (params: unknown) => {
        this.events.push({ method, params: params as Record<string, unknown> });
      });
    }
  }

  /** Sends a protocol command to this page and returns its result. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    // deno-lint-ignore no-explicit-any
    return this.session.send(method as any, params as any) as Promise<Record<string, unknown>>;
  }

  /** Loads a URL and waits for its load event. */
  async navigate(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: "load", timeout: TIMEOUT_MS });
  }

  /** Evaluates an expression in the page (promises awaited) and returns its value as JSON. */
  evaluate<T = unknown>(expression: string): Promise<T> {
    return this.page.evaluate(expression) as Promise<T>;
  }

  /** A PNG of the whole page, beyond the viewport. */
  async screenshotPng(): Promise<Uint8Array> {
    return await this.page.screenshot({ type: "png", fullPage: true });
  }
}

/**
 * A headless Chromium process. Dispose it (`await using`) to close the browser, kill it by PID if
 * it does not exit, and delete its profile.
 *
 * @example
 * ```ts
 * import { Chromium } from "./chromium.ts";
 * await using browser = await Chromium.launch({ widthPx: 1200 });
 * const page = await browser.newPage();
 * ```
 */
export class Chromium implements AsyncDisposable {
  private constructor(private readonly browser: Browser, private readonly profileDir: string) {}

  /** Starts Chromium; its pages are `widthPx` × `heightPx` CSS pixels. */
  static async launch(options: { widthPx?: number; heightPx?: number } = {}): Promise<Chromium> {
    const profileDir = await Deno.makeTempDir({ prefix: "tailgate-chromium-" });
    try {
      const browser = await launchBrowser({
        executablePath: CHROMIUM_PATH,
        headless: true,
        userDataDir: profileDir,
        timeout: TIMEOUT_MS,
        protocolTimeout: TIMEOUT_MS,
        defaultViewport: { width: options.widthPx ?? 1280, height: options.heightPx ?? 900 },
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--hide-scrollbars",
          "--mute-audio",
          "--no-pings",
          // No host name resolves: the browser cannot reach any machine, whatever a page asks.
          "--host-resolver-rules=MAP * ~NOTFOUND",
        ],
      });
      return new Chromium(browser, profileDir);
    } catch (e) {
      await Deno.remove(profileDir, { recursive: true }).catch(() => {});
      throw e;
    }
  }

  /** Opens a blank page and enables the Runtime, Log and Network domains on it. */
  async newPage(): Promise<Page> {
    const page = await this.browser.newPage();
    const session = await page.createCDPSession();
    const wrapped = new Page(page, session);
    for (const domain of ["Runtime", "Log", "Network"]) {
      await session.send(`${domain}.enable` as never);
    }
    return wrapped;
  }

  /** Closes the browser, kills it by PID if it does not exit in 5 s, and deletes its profile. */
  async [Symbol.asyncDispose](): Promise<void> {
    const pid = this.browser.process()?.pid;
    const closed = this.browser.close().then(() => true, () => false);
    const inTime = await Promise.race([
      closed,
      new Promise<boolean>((r) => setTimeout(() => r(false), 5_000)),
    ]);
    if (!inTime && pid !== undefined) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await Deno.remove(this.profileDir, { recursive: true }).catch(() => {});
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
