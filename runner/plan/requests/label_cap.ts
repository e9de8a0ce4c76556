/**
 * How many request labels a plan may have. Every label keeps its own latency histograms (response
 * and service time, 188 KB each) for the stages and seconds still open, so a run's memory grows
 * with its labels: measured at 2000/s with every label busy, 300 labels took 580 MB and 1000
 * labels 1.9 GB (2.3 GB in 12 stages), where 12,000 labels took 5.5 GB at 2/s and 28,000 never
 * finished. A few hundred labels is a large API; thousands is a plan generated with one request
 * per id, which belongs in one request whose path varies (a template).
 *
 * @module
 */
import type { YamlEntry, YamlNode } from "../read/mod.ts";
import type { PlanReader } from "../read/mod.ts";

/**
 * The most requests (each its own label) a plan may have.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_REQUEST_LABELS } from "./label_cap.ts";
 * assert.equal(MAX_REQUEST_LABELS, 1000);
 * ```
 */
export const MAX_REQUEST_LABELS = 1000;

/**
 * From this many labels on, a plan is valid with a warning that names the memory they may take.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LABEL_WARNING_COUNT, MAX_REQUEST_LABELS } from "./label_cap.ts";
 * assert.ok(LABEL_WARNING_COUNT < MAX_REQUEST_LABELS);
 * ```
 */
export const LABEL_WARNING_COUNT = 500;

/** What one busy label took at most in a run, in MB (measured: 1000 labels, 1.9 GB). */
const LABEL_MB = 1.9;

/** How to write `count` requests that differ only in an id as one. */
function groupHint(count: number): string {
  return "requests that differ only in an id are one request under one `name`, its path a " +
    `template: \`path: /items/{{id}}\` with \`vars: { id: { int: [1, ${count}] } }\`, or the ids ` +
    'in a `data` file (docs/plan.md, "Real traffic")';
}

/**
 * Refuses a `requests:` list of more than {@linkcode MAX_REQUEST_LABELS} entries and warns from
 * {@linkcode LABEL_WARNING_COUNT} on, both located at the `requests:` key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseYaml } from "../read/mod.ts";
 * import { PlanReader } from "../read/mod.ts";
 * import { checkLabelCount } from "./label_cap.ts";
 * const root = parseYaml("requests: [{ path: / }]\n").root!;
 * const reader = new PlanReader("plan.yaml");
 * if (root.kind === "map") checkLabelCount(reader, root.entries[0]);
 * assert.equal(reader.issues.length, 0);
 * ```
 */
export function checkLabelCount(reader: PlanReader, entry: YamlEntry): void {
  // A journey counts once (its journey-time histograms) and once per step (each its label).
  const count = entry.value.kind === "seq"
    ? entry.value.items.reduce((n, item) => n + labelsOf(item), 0)
    : 0;
  const at = { pos: entry.keyPos, length: entry.key.length };
  if (count > MAX_REQUEST_LABELS) {
    reader.error(
      at,
      "requests",
      `${count} requests, each its own label: at most ${MAX_REQUEST_LABELS} (every label keeps ` +
        `its own latency histograms, up to ${LABEL_MB} MB)`,
      groupHint(count),
    );
    return;
  }
  if (count < LABEL_WARNING_COUNT) return;
  reader.warn(
    at,
    "requests",
    `${count} requests, each its own label, near the limit of ${MAX_REQUEST_LABELS}: their ` +
      `latency histograms take up to ${Math.round(count * LABEL_MB)} MB when every label is busy`,
    groupHint(count),
  );
}

/** Labels one `requests` item makes: 1 for a request, 1 + its steps for a journey. */
function labelsOf(item: YamlNode): number {
  if (item.kind !== "map") return 1;
  const isJourney = item.entries.some((e) => JOURNEY_KEYS.includes(e.key));
  const steps = item.entries.find((e) => STEPS_KEYS.includes(e.key))?.value;
  return isJourney && steps?.kind === "seq" ? 1 + steps.items.length : 1;
}

/** The journey key and its synonyms, and the steps key and its (plan_language.ts). */
const JOURNEY_KEYS = ["journey", "flow", "scenario"];
const STEPS_KEYS = ["steps", "sequence", "chain"];
