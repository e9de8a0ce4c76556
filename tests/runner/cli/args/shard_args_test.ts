import assert from "node:assert/strict";
import { problemText } from "../../../../runner/model/result.ts";
import { parseShard, parseStartAt } from "../../../../runner/cli/args/shard_args.ts";
import { parseRunArgs } from "../../../../runner/cli/run_args.ts";

Deno.test("parseShard() reads I/N counted from 0 and refuses shards that do not exist", () => {
  assert.deepEqual(parseShard("0/4"), { ok: true, value: { index: 0, count: 4 } });
  assert.deepEqual(parseShard(" 3 / 4 "), { ok: true, value: { index: 3, count: 4 } });
  const past = parseShard("4/4");
  assert.ok(
    !past.ok &&
      /shards count from 0, so they are 0\/4 \.\. 3\/4/.test(problemText(past.problems[0])),
  );
  assert.ok(!parseShard("0/0").ok);
  assert.ok(!parseShard("1of4").ok);
  assert.ok(!parseShard("-1/4").ok);
  assert.ok(!parseShard("0/99999").ok);
});

Deno.test("parseStartAt() needs a zone so every machine reads the same instant", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  assert.deepEqual(parseStartAt("2026-11-22T10:05:00Z", now), {
    ok: true,
    value: now + 300_000,
  });
  assert.deepEqual(parseStartAt("2026-11-22T11:05:00.500+01:00", now), {
    ok: true,
    value: now + 300_500,
  });
  const noZone = parseStartAt("2026-11-22T10:05:00", now);
  assert.ok(
    !noZone.ok &&
      /with a zone; write e\.g\. 2026-11-22T10:02:00\.000Z/.test(problemText(noZone.problems[0])),
  );
  const far = parseStartAt("2026-11-24T10:05:00Z", now);
  assert.ok(!far.ok && /more than 24 h ahead/.test(problemText(far.problems[0])));
  assert.ok(!parseStartAt("2026-13-45T10:05:00Z", now).ok);
});

Deno.test("parseRunArgs() takes --report, --shard and --start-at and names mistakes", () => {
  const ok = parseRunArgs(["p.yaml", "--report", "html,hlog", "--shard", "1/3"]);
  assert.ok(ok.ok);
  assert.deepEqual(ok.value.reports, ["html", "hlog"]);
  assert.deepEqual(ok.value.shard, { index: 1, count: 3 });
  const defaults = parseRunArgs(["p.yaml"]);
  assert.ok(defaults.ok);
  assert.deepEqual(defaults.value.reports, ["json", "html", "junit", "md"]);
  assert.equal(defaults.value.shard, undefined);
  const bad = parseRunArgs(["p.yaml", "--report", "pdf", "--shard", "3/3", "--start-at", "noon"]);
  assert.ok(!bad.ok);
  assert.equal(bad.problems.length, 3);
  assert.match(problemText(bad.problems[0]), /--report: unknown report format `pdf`/);
  assert.match(problemText(bad.problems[1]), /--shard: shard 3 of 3 does not exist/);
  assert.match(problemText(bad.problems[2]), /--start-at: `noon` is not an ISO 8601 time/);
  const update = parseRunArgs(["p.yaml", "--shard", "0/2", "--update-baseline"]);
  assert.ok(!update.ok && /tailgate merge --update-baseline/.test(problemText(update.problems[0])));
});
