/**
 * The only importer of `npm:puppeteer-core`: the browser tests drive the system Chromium through
 * it (chromium.ts). puppeteer-core is Google's Chrome DevTools Protocol client without a bundled
 * browser; it replaces a hand-written client of 344 lines.
 *
 * @module
 */
import puppeteer from "npm:puppeteer-core@25.16.0";

export type { Browser, CDPSession, Page as PuppeteerPage } from "npm:puppeteer-core@25.16.0";

/** puppeteer's launcher, as the browser tests use it. */
export const launchBrowser: typeof puppeteer.launch = (options) => puppeteer.launch(options);
