/**
 * Keeps the documentation from naming files that are not there: every repository path that
 * docs/ARCHITECTURE.md, the other docs (docs/decisions/ too), README.md and CHANGELOG.md name must
 * exist. A path is a token that starts at one of the code's top folders (`runner/…`,
 * `reporters/…`, `ci/…`, `bench/…`, `tests/…`, `bin/…`, `docs/…`) or is a `.ts` file name
 * (`run_engine.ts`, `render/render_ahead.ts`): a full path must exist as written, a file name must
 * be the end of some file's path. docs/ARCHITECTURE.md
 * also says where each file name lives: the folder its table row or diagram line is about, so a
 * name must be in that folder or below it. A Markdown link to a file must lead to one.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize } from "node:path";
import { REPO_ROOT } from "../_helpers/source_files.ts";

/** The folders a named path can start at; `plans/…` is left out: the docs' plans are users'. */
const ROOTS = ["runner", "reporters", "ci", "bench", "tests", "bin", "docs"];

/** Folders that hold no file a doc could name. */
const SKIPPED = new Set([".git", "node_modules", "tailgate-out", ".test-results", ".scratch"]);

/** A path from a top folder; not part of a URL, an absolute path or a `../` path. */
const FULL_PATH = new RegExp(`(?<![\\w./:@-])((?:${ROOTS.join("|")})/[\\w.*/-]*)`, "g");

/** A `.ts` file name in backticks, possibly after a folder or two (`render/byte_writer.ts`). */
const FILE_NAME = /`((?:[\w*-]+\/)*[\w*-]+\.ts)`/g;

/** A Markdown link (outside code) to a file of the repository: not a URL, an anchor or an address. */
const LINK = /\]\((?![a-z]+:|#)([^)\s#]+)(?:#[^)]*)?\)/g;

/** A folder an ARCHITECTURE line is about: a table row's first cell or a diagram line's start. */
const LINE_FOLDER = /^(?:\|\s*`|\s*(?:└\s*)?)((?:runner|reporters|ci)(?:\/[\w-]+)*)\/?[`,\s]/;

async function repoFiles(dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(REPO_ROOT, dir))) {
    if (SKIPPED.has(entry.name)) continue;
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(`${path}/`, ...await repoFiles(path));
    else out.push(path);
  }
  return out;
}

/** `glob` with `*` matching within one path segment, as a whole-path pattern. */
function globPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*");
  return new RegExp(`^${escaped}$`);
}

/** Whether `path` (a file, or a folder ending in `/`, possibly with `*`) is in `files`. */
function exists(files: readonly string[], path: string): boolean {
  const want = path.replace(/[.]$/, "");
  const pattern = globPattern(want);
  return files.some((f) => pattern.test(f) || pattern.test(f.replace(/\/$/, "")));
}

/** Whether some file under `folder` ends with `name` (which may hold a folder or a `*`). */
function nameExists(files: readonly string[], name: string, folder = ""): boolean {
  const inFolder = folder === "" ? "" : `${folder}/`;
  const pattern = globPattern(name);
  const segments = name.split("/").length;
  return files.some((f) =>
    f.startsWith(inFolder) && pattern.test(f.split("/").slice(-segments).join("/"))
  );
}

/** Every path `text` names that is not in `files`, as `line N: path`. */
function missingPaths(
  text: string,
  files: readonly string[],
  byLineFolder: boolean,
  docFolder = "",
): string[] {
  const missing: string[] = [];
  let folder = "";
  text.split("\n").forEach((line, i) => {
    const found = byLineFolder ? LINE_FOLDER.exec(line) : null;
    if (found !== null) folder = found[1];
    else if (byLineFolder && !/^\s{4,}\S/.test(line)) folder = "";
    for (const [, path] of line.matchAll(FULL_PATH)) {
      if (!exists(files, path)) missing.push(`line ${i + 1}: ${path}`);
    }
    for (const [, link] of line.replace(/`[^`]*`/g, "").matchAll(LINK)) {
      const path = normalize(join(docFolder, link)).replace(/^\.\/?/, "");
      if (path.startsWith("..") || !exists(files, path)) missing.push(`line ${i + 1}: (${link})`);
    }
    for (const [, name] of line.matchAll(FILE_NAME)) {
      if (ROOTS.some((root) => name.startsWith(`${root}/`))) continue;
      if (!nameExists(files, name, folder)) {
        missing.push(`line ${i + 1}: ${name}${folder === "" ? "" : ` (in ${folder}/)`}`);
      }
    }
  });
  return missing;
}

const files = await repoFiles();

function docsToCheck(): string[] {
  return [
    "README.md",
    "CHANGELOG.md",
    ...files.filter((f) => f.startsWith("docs/") && f.endsWith(".md")),
  ].sort();
}

Deno.test("every path docs/ARCHITECTURE.md names exists, in the folder its line is about", async () => {
  const text = await Deno.readTextFile(join(REPO_ROOT, "docs/ARCHITECTURE.md"));
  assert.deepEqual(missingPaths(text, files, true, "docs"), []);
});

Deno.test("every repository path README.md, CHANGELOG.md and the other docs name exists", async () => {
  const missing: string[] = [];
  for (const doc of docsToCheck()) {
    if (doc === "docs/ARCHITECTURE.md") continue;
    const text = await Deno.readTextFile(join(REPO_ROOT, doc));
    const folder = dirname(doc) === "." ? "" : dirname(doc);
    missing.push(...missingPaths(text, files, false, folder).map((m) => `${doc} ${m}`));
  }
  assert.deepEqual(missing, []);
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replaceAll(" ", "-");
}

Deno.test("every link to a section of a doc finds that section's heading", async () => {
  const missing: string[] = [];
  for (const doc of docsToCheck()) {
    const text = (await Deno.readTextFile(join(REPO_ROOT, doc))).replace(/`[^`\n]*`/g, "");
    for (const [, file, anchor] of text.matchAll(/\]\(([^)\s#:]+\.md)#([^)\s]+)\)/g)) {
      const target = normalize(join(dirname(doc), file));
      const headings = (await Deno.readTextFile(join(REPO_ROOT, target))).split("\n")
        .flatMap((line) => /^#{1,6} (.*)$/.exec(line)?.slice(1) ?? []).map(anchorOf);
      if (!headings.includes(anchor)) missing.push(`${doc}: ${file}#${anchor}`);
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("the path check flags a wrong path and passes prose", () => {
  const sample = [
    "| `runner/run/` | `run_engine.ts`, `run_plan.ts` (engine workers) |",
    "see `runner/run/run_engine.ts` and runner/nowhere/x.ts; https://example.com/runner/x.ts",
    "a ratio like 20k/s, `../shared/bench/peers.sh`, `tests/<same path>_test.ts`",
    "[the engine](engine.md), [gone](decisions/gone.md#why), [site](https://e.com/x.md), `![x](…)`",
  ].join("\n");
  const some = ["runner/", "runner/run/", "runner/run/run_engine.ts", "tests/", "docs/engine.md"];
  assert.deepEqual(missingPaths(sample, some, true, "docs"), [
    "line 1: run_plan.ts (in runner/run/)",
    "line 2: runner/nowhere/x.ts",
    "line 4: (decisions/gone.md)",
  ]);
});
