/**
 * Reads an HdrHistogram interval log with Python's `hdrh` (PyPI `hdrhistogram`, its
 * `HistogramLogReader`), software nobody here wrote: each line's tag, count and max in
 * nanoseconds, as that reader decodes them. CI installs it (.ci/install-tools); elsewhere its tests
 * are ignored when it is missing.
 *
 * @module
 */

/** One interval line as hdrh reads it. */
export interface HdrhEntry {
  /** The line's tag, or null for the untagged line. */
  tag: string | null;
  count: number;
  maxNs: number;
}

const SCRIPT = `
import json, sys
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader
reader = HistogramLogReader(sys.argv[1], HdrHistogram(1, 3_600_000_000_000, 3))
out = []
while True:
    h = reader.get_next_interval_histogram()
    if h is None:
        break
    out.append({"tag": h.get_tag(), "count": h.get_total_count(), "maxNs": h.get_max_value()})
print(json.dumps(out))
`;

/** Whether `python3` can import hdrh. */
export function hasHdrh(): boolean {
  try {
    return new Deno.Command("python3", {
      args: ["-c", "import hdrh.log"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** The test's `ignore` flag: true (with a note) without hdrh, unless CI requires the tools. */
export function ignoreWithoutHdrh(): boolean {
  if (hasHdrh() || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") return false;
  console.error("note: Python hdrh is not installed; its tests are ignored (.ci/install-tools)");
  return true;
}

/** Reads the interval log `text` with hdrh. */
export async function readWithHdrh(text: string): Promise<HdrhEntry[]> {
  const file = await Deno.makeTempFile({ suffix: ".hlog" });
  try {
    await Deno.writeTextFile(file, text);
    const out = await new Deno.Command("python3", {
      args: ["-c", SCRIPT, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const dec = new TextDecoder();
    if (!out.success) throw new Error(`hdrh failed: ${dec.decode(out.stderr)}`);
    return JSON.parse(dec.decode(out.stdout));
  } finally {
    await Deno.remove(file);
  }
}
