import assert from "node:assert/strict";
import { changelogSection, releasedChangelog } from "../../../ci/release/changelog.ts";

const ROOT = new URL("../../../", import.meta.url);
const FIRST = "# Changelog\n\nIntro.\n\n## [0.1.0] - Unreleased\n\nThe first version.\n\n" +
  "### Added\n\n- A.\n\n[0.1.0]: https://github.com/o/tailgate/commits/main\n";

Deno.test("the first release dates its section, opens Unreleased and links the tag", () => {
  const released = releasedChangelog(FIRST, "0.1.0", "2026-05-06");
  assert.ok(released.ok);
  assert.equal(
    released.value,
    "# Changelog\n\nIntro.\n\n## [Unreleased]\n\n## [0.1.0] - 2026-05-06\n\nThe first version.\n\n" +
      "### Added\n\n- A.\n\n" +
      "[Unreleased]: https://github.com/o/tailgate/compare/v0.1.0...HEAD\n" +
      "[0.1.0]: https://github.com/o/tailgate/releases/tag/v0.1.0\n",
  );
  const section = changelogSection(released.value, "0.1.0");
  assert.deepEqual(section, {
    ok: true,
    value: { date: "2026-05-06", body: "The first version.\n\n### Added\n\n- A." },
  });
});

Deno.test("the next release takes what is under Unreleased, and needs something there", () => {
  const first = releasedChangelog(FIRST, "0.1.0", "2026-05-06");
  assert.ok(first.ok);
  const empty = releasedChangelog(first.value, "0.2.0", "2026-06-07");
  assert.equal(empty.ok, false);
  assert.match(empty.ok ? "" : empty.problems[0].message, /nothing under `## \[Unreleased\]`/);
  const withChange = first.value.replace("## [Unreleased]\n", "## [Unreleased]\n\n- B.\n");
  const second = releasedChangelog(withChange, "0.2.0", "2026-06-07");
  assert.ok(second.ok);
  assert.deepEqual(changelogSection(second.value, "0.2.0"), {
    ok: true,
    value: { date: "2026-06-07", body: "- B." },
  });
  assert.deepEqual(changelogSection(second.value, "Unreleased"), { ok: true, value: { body: "" } });
  assert.match(
    second.value,
    /^\[0\.2\.0\]: https:\/\/github\.com\/o\/tailgate\/compare\/v0\.1\.0\.\.\.v0\.2\.0$/m,
  );
  assert.equal(second.value.match(/^\[Unreleased\]: /gm)?.length, 1);
  // A version released once is not released again.
  assert.equal(releasedChangelog(second.value, "0.2.0", "2026-06-08").ok, false);
});

Deno.test("the repository's CHANGELOG.md has a section for deno.json's version", async () => {
  const text = await Deno.readTextFile(new URL("CHANGELOG.md", ROOT));
  const { version } = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const section = changelogSection(text, version);
  assert.ok(section.ok);
  assert.match(section.value.body, /### Added/);
});
