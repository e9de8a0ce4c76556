/**
 * What the report pages' browser tests share: a test that needs Chromium, a page written to a
 * file and opened over file:// with the network offline, the pixels each canvas drew, and the
 * errors and network requests the page made.
 *
 * @module
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CdpEvent, Chromium, Page } from "../../_helpers/chromium.ts";
import { ignoreWithout } from "../../_helpers/test_tools.ts";

/** A test that drives `chromium`: ignored where it is not installed (CI requires it). */
export function browserTest(name: string, fn: () => void | Promise<void>): void {
  Deno.test({ name, ignore: ignoreWithout("chromium"), fn });
}

/** Writes the page's HTML to a file in `dir`, opens it over file:// with the network offline. */
export async function openPage(browser: Chromium, dir: string, html: string): Promise<Page> {
  const path = join(dir, `report-${crypto.randomUUID().slice(0, 8)}.html`);
  await Deno.writeTextFile(path, html);
  const page = await browser.newPage();
  await page.send("Network.emulateNetworkConditions", {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.navigate(pathToFileURL(path).href);
  return page;
}

/** Canvas id → pixels with any opacity, read back through getImageData. */
export function drawnPixels(page: Page): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const out = {};
    for (const c of document.querySelectorAll("canvas")) {
      const pixels = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let drawn = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) drawn++;
      out[c.id] = drawn;
    }
    return out;
  })()`);
}

/** Errors the page reported: exceptions, console errors and assertions, error log entries. */
export function problems(events: readonly CdpEvent[]): string[] {
  return events.flatMap((e) => {
    const p = e.params as {
      type?: string;
      args?: unknown;
      entry?: { level: string; source: string; text: string; url?: string };
    };
    if (e.method === "Runtime.exceptionThrown") return [`exception: ${JSON.stringify(p)}`];
    if (e.method === "Runtime.consoleAPICalled" && ["error", "assert"].includes(p.type ?? "")) {
      return [`console.${p.type}: ${JSON.stringify(p.args)}`];
    }
    if (e.method === "Log.entryAdded" && p.entry?.level === "error") {
      return [`log: ${p.entry.source} ${p.entry.text} ${p.entry.url ?? ""}`];
    }
    return [];
  });
}

/** URLs the page requested that are not the file itself (or inline data). */
export function remoteRequests(events: readonly CdpEvent[]): string[] {
  return events.filter((e) => e.method === "Network.requestWillBeSent")
    .map((e) => (e.params.request as { url: string }).url)
    .filter((url) => !url.startsWith("file://") && !url.startsWith("data:"));
}
