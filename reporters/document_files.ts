/**
 * A command's document and its two renderings (`<name>.json`, `<name>.md`, `<name>.html`), each
 * written atomically and on its own, so one that cannot be written leaves the others.
 *
 * @module
 */
import { join } from "node:path";
import { type FileToWrite, writeEach } from "./write_reports.ts";

/** How a document is rendered as Markdown and as an HTML page. */
export interface DocumentRenderers<T> {
  markdown(doc: T): string;
  html(doc: T): string;
}

/**
 * Writes `<name>.json`, `<name>.md` and `<name>.html` of `doc` in `outDir`, each on its own:
 * those written, and those not, naming the cause.
 */
export async function writeDocumentFiles<T>(
  outDir: string,
  name: string,
  doc: T,
  render: DocumentRenderers<T>,
): Promise<{ written: string[]; ioFailures: string[] }> {
  const file = (ext: string, text: () => string): FileToWrite => ({
    what: `${name}.${ext}`,
    path: join(outDir, `${name}.${ext}`),
    render: text,
  });
  const files = [
    file("json", () => JSON.stringify(doc, null, 1) + "\n"),
    file("md", () => render.markdown(doc)),
    file("html", () => render.html(doc)),
  ];
  const each = await writeEach(files);
  const written = files.filter((_, i) => each.written[i]).map((f) => f.path);
  return { written, ioFailures: each.errors };
}
