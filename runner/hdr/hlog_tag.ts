/**
 * Tags of tailgate's HdrHistogram interval log (.hlog) lines: which latency of which requests a
 * line holds (docs/reporters.md).
 *
 * - no tag: corrected response time of all requests (what tools read by default);
 * - `service`: service time of all requests;
 * - `ttfb`: time to first byte (from the intended send time) of all requests;
 * - `response:<label>`, `service:<label>` and `ttfb:<label>`: the same for one request label.
 *
 * Reference readers split lines at commas and spaces (Java) and reject tags with a comma, space, CR
 * or LF (Java, Rust), so a label is written percent-encoded: every character outside printable
 * ASCII (U+0021 to U+007E), and every `,` and `%`, becomes `%XX` for each of its UTF-8 bytes.
 * `GET /orders` is written `GET%20/orders`. The mapping is one-to-one on well-formed strings and
 * {@linkcode parseHlogTag} reverses it.
 *
 * @module
 */

/**
 * Which latency a line holds: corrected response time, service time or time to first byte.
 */
export type HlogMetric = "response" | "service" | "ttfb";

/**
 * What a tailgate tag says: the metric, and the request label unless the line covers all requests.
 */
export interface HlogTagMeaning {
  metric: HlogMetric;
  label?: string;
}

/**
 * The tag of a line (undefined: the untagged line of all requests' response time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hlogTag } from "./hlog_tag.ts";
 * assert.equal(hlogTag("response"), undefined);
 * assert.equal(hlogTag("service"), "service");
 * assert.equal(hlogTag("response", "GET /orders"), "response:GET%20/orders");
 * ```
 */
export function hlogTag(metric: HlogMetric, label?: string): string | undefined {
  if (label === undefined) return metric === "response" ? undefined : metric;
  return `${metric}:${encodeLabel(label)}`;
}

/**
 * Reads a tag written by {@linkcode hlogTag}; undefined for tags tailgate does not write.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHlogTag } from "./hlog_tag.ts";
 * assert.deepEqual(parseHlogTag(undefined), { metric: "response" });
 * assert.deepEqual(parseHlogTag("service:GET%20/orders"), { metric: "service", label: "GET /orders" });
 * assert.equal(parseHlogTag("gc-pauses"), undefined);
 * ```
 */
export function parseHlogTag(tag: string | undefined): HlogTagMeaning | undefined {
  if (tag === undefined) return { metric: "response" };
  if (tag === "service" || tag === "ttfb") return { metric: tag };
  const match = /^(response|service|ttfb):(.*)$/s.exec(tag);
  if (match === null) return undefined;
  try {
    const label = decodeURIComponent(match[2]);
    // Only the one spelling hlogTag writes (upper-case hex, nothing needlessly escaped).
    return encodeLabel(label) === match[2] ? { metric: match[1] as HlogMetric, label } : undefined;
  } catch {
    return undefined; // a malformed escape or not UTF-8
  }
}

const utf8 = new TextEncoder();

function encodeLabel(label: string): string {
  let out = "";
  for (const char of label) {
    const code = char.codePointAt(0)!;
    if (code >= 0x21 && code <= 0x7e && char !== "," && char !== "%") {
      out += char;
      continue;
    }
    for (const byte of utf8.encode(char)) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    }
  }
  return out;
}
