/**
 * External programs some tests drive (headless Chromium, xmllint, actionlint). On a machine
 * without one, its tests are ignored with a note, so the README's test command works anywhere
 * with node and npm; CI installs them (.ci/install-tools) and sets TAILGATE_REQUIRE_TOOLS=1,
 * so there a missing program fails its tests instead.
 *
 * @module
 */

const checked = new Map<string, boolean>();

/**
 * Whether `command` runs (`command --version` exits 0).
 *
 * @example
 * ```ts
 * import { hasTool } from "./test_tools.ts";
 * hasTool("xmllint"); // true where libxml2-utils is installed
 * ```
 */
export function hasTool(command: string): boolean {
  let ok = checked.get(command);
  if (ok === undefined) {
    try {
      ok = new Deno.Command(command, { args: ["--version"], stdout: "null", stderr: "null" })
        .outputSync().success;
    } catch {
      ok = false;
    }
    checked.set(command, ok);
  }
  return ok;
}

/**
 * The `ignore` flag of a test that needs `command`: true (with a note on stderr) when it is
 * missing, unless TAILGATE_REQUIRE_TOOLS=1 asks for the test to run and fail.
 *
 * @example
 * ```ts
 * import { ignoreWithout } from "./test_tools.ts";
 * Deno.test({ name: "validates", ignore: ignoreWithout("xmllint"), fn: () => {} });
 * ```
 */
export function ignoreWithout(command: string): boolean {
  if (hasTool(command) || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") return false;
  if (!checked.has(`${command}:noted`)) {
    checked.set(`${command}:noted`, true);
    console.error(
      `note: \`${command}\` is not installed; its tests are ignored (bash .ci/install-tools ` +
        "installs it)",
    );
  }
  return true;
}
