/**
 * CHANGELOG.md at a release: its section for a version (the GitHub release's notes), and the
 * file with the changes not yet released turned into the release's section, dated. Changes go
 * under `## [Unreleased]`; before the first release they go under the version deno.json names,
 * marked `- Unreleased`. Pure: text in, text or problems out.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../../runner/model/mod.ts";

/** A version's section: its date (absent while it is unreleased) and its text. */
export interface ChangelogSection {
  /** `YYYY-MM-DD`, or undefined for a section marked `Unreleased`. */
  date?: string;
  /** The lines under the heading, up to the next `## ` heading, without the link references. */
  body: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const heading = (version: string) =>
  new RegExp(`^## \\[${escape(version)}\\](?: - (\\d{4}-\\d{2}-\\d{2}|Unreleased))?[ \\t]*$`, "m");

/**
 * The section of `version` (`0.1.0`, or `Unreleased`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changelogSection } from "./changelog.ts";
 * const text = "# Changelog\n\n## [0.2.0] - 2026-01-02\n\n- B.\n\n## [0.1.0] - 2026-01-01\n\n- A.\n\n" +
 *   "[0.1.0]: https://github.com/o/tailgate/releases/tag/v0.1.0\n";
 * assert.deepEqual(changelogSection(text, "0.2.0"), { ok: true, value: { date: "2026-01-02", body: "- B." } });
 * assert.deepEqual(changelogSection(text, "0.1.0"), { ok: true, value: { date: "2026-01-01", body: "- A." } });
 * assert.equal(changelogSection(text, "0.3.0").ok, false);
 * ```
 */
export function changelogSection(text: string, version: string): Result<ChangelogSection> {
  const m = heading(version).exec(text);
  if (!m) {
    return err(problem(
      `CHANGELOG.md has no section \`## [${version}]\``,
      version === "Unreleased"
        ? "write the release's changes under `## [Unreleased]` first"
        : "the release's changes go under its version's heading (deno task bump writes it)",
    ));
  }
  const rest = text.slice(m.index + m[0].length);
  const next = rest.search(/^## /m);
  const body = (next === -1 ? rest : rest.slice(0, next))
    .split("\n").filter((line) => !/^\[[^\]]+\]: \S+$/.test(line)).join("\n").trim();
  const date = m[1] === undefined || m[1] === "Unreleased" ? undefined : m[1];
  return ok(date === undefined ? { body } : { date, body });
}

/**
 * CHANGELOG.md once `version` is released on `date`: the changes under `## [Unreleased]` (or,
 * for the first release, under `## [version] - Unreleased`) become `## [version] - date`, an
 * empty `## [Unreleased]` goes above it, and the link references follow (the repository's URL is
 * read from the existing ones).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { releasedChangelog } from "./changelog.ts";
 * const text = "# Changelog\n\n## [Unreleased]\n\n- B.\n\n## [0.1.0] - 2026-01-01\n\n- A.\n\n" +
 *   "[0.1.0]: https://github.com/o/tailgate/releases/tag/v0.1.0\n";
 * const released = releasedChangelog(text, "0.2.0", "2026-02-03");
 * assert.ok(released.ok);
 * assert.match(released.value, /## \[Unreleased\]\n\n## \[0\.2\.0\] - 2026-02-03\n\n- B\./);
 * assert.match(released.value, /^\[0\.2\.0\]: https:\/\/github\.com\/o\/tailgate\/compare\/v0\.1\.0\.\.\.v0\.2\.0$/m);
 * assert.match(released.value, /^\[Unreleased\]: https:\/\/github\.com\/o\/tailgate\/compare\/v0\.2\.0\.\.\.HEAD$/m);
 * ```
 */
export function releasedChangelog(text: string, version: string, date: string): Result<string> {
  const unreleased = changelogSection(text, "Unreleased");
  const own = changelogSection(text, version);
  let section: RegExp;
  if (unreleased.ok) {
    if (own.ok) {
      return err(problem(`CHANGELOG.md already has a section for ${version}`, "bump to a new one"));
    }
    if (unreleased.value.body === "") {
      return err(problem("nothing under `## [Unreleased]` in CHANGELOG.md", "write the changes"));
    }
    section = heading("Unreleased");
  } else if (own.ok && own.value.date === undefined) section = heading(version);
  else return unreleased;
  const previous = /^## \[(\d+\.\d+\.\d+[^\]]*)\] - \d{4}-\d{2}-\d{2}/m.exec(text)?.[1];
  let out = text.replace(section, `## [Unreleased]\n\n## [${version}] - ${date}`);
  const repo = /^\[[^\]]+\]: (https:\/\/github\.com\/[^/\s]+\/[^/\s]+)/m.exec(text)?.[1];
  if (repo) {
    const links = out.split("\n").filter((l) =>
      !new RegExp(`^\\[(Unreleased|${escape(version)})\\]: `).test(l)
    );
    const at = links.findIndex((l) => /^\[[^\]]+\]: /.test(l));
    const fresh = [
      `[Unreleased]: ${repo}/compare/v${version}...HEAD`,
      previous
        ? `[${version}]: ${repo}/compare/v${previous}...v${version}`
        : `[${version}]: ${repo}/releases/tag/v${version}`,
    ];
    if (at === -1) {
      while (links.at(-1) === "") links.pop();
      links.push("", ...fresh, "");
    } else links.splice(at, 0, ...fresh);
    out = links.join("\n");
  }
  return ok(out);
}
