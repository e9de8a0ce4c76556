/**
 * A real full disk for a test, without touching the machine: a command runs in its own mount
 * namespace (`unshare --user --map-root-user --mount`) with a small tmpfs mounted on a folder and
 * filled to the last byte, so every write there fails with ENOSPC, as on a full CI runner. The
 * mount ends with the command. Where user namespaces are not allowed, the tests are ignored with a
 * note, unless TAILGATE_REQUIRE_TOOLS=1 asks for them to run and fail.
 *
 * @module
 */

const SCRIPT = `set -u
mount="$1"; shift
mount -t tmpfs -o size=256k tailgate-full "$mount" || exit 90
for seed in "$mount".seed/*; do [ -e "$seed" ] && cp -r "$seed" "$mount/"; done
dd if=/dev/zero of="$mount/.fill" bs=4096 2>/dev/null
"$@"
code=$?
echo "--- after"
echo "exit $code"
cd "$mount" && find . -path ./.fill -prune -o -type f -print | sort | xargs -r sha256sum
exit 0
`;

let usable: boolean | undefined;

/**
 * Whether a tmpfs can be mounted in a user namespace here.
 *
 * @example
 * ```ts
 * import { canFillADisk } from "./full_disk.ts";
 * Deno.test({ name: "…", ignore: !canFillADisk(), fn: () => {} });
 * ```
 */
export function canFillADisk(): boolean {
  if (usable === undefined) {
    const dir = Deno.makeTempDirSync({ prefix: "tailgate-probe-" });
    try {
      usable = new Deno.Command("unshare", {
        args: ["-rm", "sh", "-c", 'mount -t tmpfs -o size=64k none "$1"', "sh", dir],
        stdout: "null",
        stderr: "null",
      }).outputSync().success;
    } catch {
      usable = false;
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
    if (!usable && Deno.env.get("TAILGATE_REQUIRE_TOOLS") !== "1") {
      console.error("note: no user namespace with a tmpfs here; the full-disk tests are ignored");
    }
  }
  return usable || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1";
}

/** What a command did on the full disk. */
export interface FullDiskRun {
  code: number;
  stdout: string;
  stderr: string;
  /** SHA-256 of every file on the disk afterwards, by path from its root (`./baselines/a.json`). */
  files: Record<string, string>;
}

/**
 * Runs `command` with the full disk mounted at `mount` (an empty folder). The files under
 * `<mount>.seed/`, if that folder exists, are copied onto the disk before it is filled.
 *
 * @example
 * ```ts
 * import { onFullDisk } from "./full_disk.ts";
 * // const run = await onFullDisk("/tmp/x/disk", [Deno.execPath(), "run", "-A", "cli.ts", "…"]);
 * ```
 */
export async function onFullDisk(mount: string, command: string[]): Promise<FullDiskRun> {
  const output = await new Deno.Command("unshare", {
    args: ["-rm", "sh", "-c", SCRIPT, "sh", mount, ...command],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const [before, after = ""] = stdout.split(/^--- after\n/m);
  const [exitLine, ...sums] = after.trim().split("\n");
  const files = Object.fromEntries(
    sums.filter((l) => l).map((l) => l.split(/\s+/)).map(([sum, path]) => [path, sum]),
  );
  return {
    code: Number(/^exit (\d+)$/.exec(exitLine ?? "")?.[1] ?? NaN),
    stdout: before,
    stderr: new TextDecoder().decode(output.stderr),
    files,
  };
}
