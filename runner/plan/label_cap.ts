/**
 * How many request labels a plan may have. Every label keeps its own latency histograms (response
 * and service time, 188 KB each) for each stage it runs in and for each open second, so a run's
 * memory grows with labels x stages: measured on a 2000/s run of three stages where every label
 * was busy, 300 labels took 570 MB and 1000 labels 1.3 GB, while 12,000 labels took 5.5 GB and
 * 28,000 never finished. A few hundred labels is a large API; thousands is a plan generated with
 * one request per id, which belongs in one request whose path varies (a template).
 *
 * @module
 */
import type { YamlEntry } from "./_yaml.ts";
import type { PlanReader } from "./plan_reader.ts";

/**
 * The most requests (each its own label) a plan may have.
 *
 * @example
 * ```ts
 * import { MAX_REQUEST_LABELS } from "./label_cap.ts";
 * MAX_REQUEST_LABELS; // 1000
 * ```
 */
export const MAX_REQUEST_LABELS = 1000;

/**
 * From this many labels on (or from {@linkcode LABEL_WARNING_MB} of their histograms), a plan is
 * valid with a warning that names the memory they take.
 *
 * @example
 * ```ts
 * import { LABEL_WARNING_COUNT, MAX_REQUEST_LABELS } from "./label_cap.ts";
 * LABEL_WARNING_COUNT < MAX_REQUEST_LABELS; // true
 * ```
 */
export const LABEL_WARNING_COUNT = 500;

/**
 * Histograms of this many MB or more (labels x (stages + open seconds) x 0.376 MB) are warned of
 * whatever the label count: 100 labels in 30 stages take as much as 1000 in 1.
 *
 * @example
 * ```ts
 * import { LABEL_WARNING_MB } from "./label_cap.ts";
 * LABEL_WARNING_MB; // 1000
 * ```
 */
export const LABEL_WARNING_MB = 1000;

/** One label's histograms in one stage or open second: two of 188 KB, in MB. */
const LABEL_HISTOGRAMS_MB = 0.376;
/** Seconds whose histograms are open at once while a run records (about two). */
const OPEN_INTERVALS = 2;

/** How to write `count` requests that differ only in an id as one. */
function groupHint(count: number): string {
  return "requests that differ only in an id are one request under one `name`, its path a " +
    `template: \`path: /items/{{id}}\` with \`vars: { id: { int: [1, ${count}] } }\`, or the ids ` +
    'in a `data` file (docs/plan.md, "Real traffic")';
}

/**
 * Refuses a `requests:` list of more than {@linkcode MAX_REQUEST_LABELS} entries and warns of one
 * near it or whose histograms would be large, both located at the `requests:` key.
 *
 * @example
 * ```ts
 * import { parseYaml } from "./_yaml.ts";
 * import { PlanReader } from "./plan_reader.ts";
 * import { checkLabelCount } from "./label_cap.ts";
 * const root = parseYaml("requests: [{ path: / }]\n").root!;
 * const reader = new PlanReader("plan.yaml");
 * if (root.kind === "map") checkLabelCount(reader, root.entries[0], 1);
 * reader.issues.length; // 0
 * ```
 */
export function checkLabelCount(reader: PlanReader, entry: YamlEntry, stageCount: number): void {
  const count = entry.value.kind === "seq" ? entry.value.items.length : 0;
  const at = { pos: entry.keyPos, length: entry.key.length };
  if (count > MAX_REQUEST_LABELS) {
    reader.error(
      at,
      "requests",
      `${count} requests, each its own label: at most ${MAX_REQUEST_LABELS} (every label keeps ` +
        `its own latency histograms, about ${LABEL_HISTOGRAMS_MB.toFixed(1)} MB per stage)`,
      groupHint(count),
    );
    return;
  }
  const mb = Math.round(count * (stageCount + OPEN_INTERVALS) * LABEL_HISTOGRAMS_MB);
  if (count < LABEL_WARNING_COUNT && mb < LABEL_WARNING_MB) return;
  const near = count >= LABEL_WARNING_COUNT ? `, near the limit of ${MAX_REQUEST_LABELS}` : "";
  reader.warn(
    at,
    "requests",
    `${count} requests, each its own label${near}: their latency histograms take up to ${mb} ` +
      `MB over ${stageCount} stage${stageCount === 1 ? "" : "s"}`,
    groupHint(count),
  );
}
