import assert from "node:assert/strict";
import {
  lateRenderSentence,
  sourceFigures,
  sourceLine,
  varsLine,
} from "../../../reporters/figures/traffic_text.ts";
import { TRAFFIC } from "../_traffic_results.ts";

const [users, regions, coupons] = TRAFFIC.sources;

Deno.test("sourceLine() gives a sequence source's file, rows, draws, rows used and how often it wrapped", () => {
  assert.equal(
    sourceLine(users),
    "users — data/users.csv, 100,000 rows, sequence: 240,000 draws, all 100,000 rows used, " +
      "wrapped 2.4×",
  );
});

Deno.test("sourceLine() gives a random source's draws alone: rows used and wrapping do not apply", () => {
  assert.equal(
    sourceLine(regions),
    "regions — data/regions.jsonl, 12 rows, random: 240,000 draws",
  );
});

Deno.test("sourceLine() says how many of the rows a source that did not wrap used", () => {
  assert.equal(
    sourceLine(coupons),
    "coupons — data/coupons.csv, 1,000 rows, shuffle: 500 draws, 500 of 1,000 rows used",
  );
  assert.equal(
    sourceLine({ ...coupons, rows: 1, draws: 1, rowsUsed: 1 }),
    "coupons — data/coupons.csv, 1 row, shuffle: 1 draw, all 1 row used",
  );
});

Deno.test("sourceFigures() gives table cells: dashes for a random source's rows used and wrapping", () => {
  assert.deepEqual(sourceFigures(users), {
    rows: "100,000",
    draws: "240,000",
    rowsUsed: "all 100,000",
    wrapped: "2.4×",
  });
  assert.deepEqual(sourceFigures(regions), {
    rows: "12",
    draws: "240,000",
    rowsUsed: "-",
    wrapped: "-",
  });
  assert.deepEqual(sourceFigures(coupons), {
    rows: "1,000",
    draws: "500",
    rowsUsed: "500",
    wrapped: "no",
  });
});

Deno.test("varsLine() names each var with its spec", () => {
  assert.equal(varsLine(TRAFFIC.vars), "id (uuid), qty (int [1, 20])");
});

Deno.test("lateRenderSentence() counts requests rendered late, and says nothing when none were", () => {
  assert.match(
    lateRenderSentence(1_200)!,
    /^1,200 requests were rendered when due instead of ahead/,
  );
  assert.match(lateRenderSentence(1)!, /^1 request was rendered when due/);
  assert.equal(lateRenderSentence(0), undefined);
});
