/**
 * Suggestions for misspelt words: a known synonym, a word that shares a prefix, or the closest word
 * by edit distance.
 *
 * @module
 */

/**
 * Returns the candidate that the user most likely meant by `word`, or undefined when none is close.
 * `synonyms` maps words people write from other tools (`rps`, `concurrency`) to ours.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { didYouMean } from "./did_you_mean.ts";
 * assert.equal(didYouMean("rate_limit", ["rate", "duration"]), "rate");
 * assert.equal(didYouMean("conections", ["connections", "stages"]), "connections");
 * ```
 */
export function didYouMean(
  word: string,
  candidates: readonly string[],
  synonyms: Readonly<Record<string, string>> = {},
): string | undefined {
  const lower = word.toLowerCase();
  const synonym = synonyms[lower];
  if (synonym !== undefined && candidates.includes(synonym)) return synonym;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3))) return best;
  const prefixed = candidates.filter((c) =>
    c.length >= 3 && (lower.startsWith(c.toLowerCase()) || c.toLowerCase().startsWith(lower))
  );
  if (lower.length >= 3 && prefixed.length > 0) {
    return prefixed.sort((a, b) => b.length - a.length)[0];
  }
  return undefined;
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editDistance } from "./did_you_mean.ts";
 * assert.equal(editDistance("sloo", "slo"), 1);
 * ```
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
