/**
 * An OTLP/HTTP metrics receiver nobody here wrote: tests/testdata/otlp_decoder, a small Go
 * program on the OpenTelemetry Collector's pdata (`pmetricotlp.ExportRequest.UnmarshalProto`),
 * which answers 400 to a body that does not decode and writes every request it took as OTLP/JSON.
 * `.ci/install-tools` builds it into `~/.cache/tailgate-tools/otlp/bin` (or
 * `$TAILGATE_TOOLS_DIR/otlp/bin`). Its tests are ignored with a note where it is missing, unless
 * TAILGATE_REQUIRE_TOOLS=1 (CI) asks for them to run and fail.
 *
 * @module
 */
import { join } from "node:path";

/** The decoder's path where install-tools builds it. */
export function otlpDecoderPath(): string {
  const tools = Deno.env.get("TAILGATE_TOOLS_DIR") ??
    join(Deno.env.get("HOME") ?? "/tmp", ".cache", "tailgate-tools");
  return join(tools, "otlp", "bin", "otlp_decoder");
}

function built(): boolean {
  try {
    return Deno.statSync(otlpDecoderPath()).isFile;
  } catch {
    return false;
  }
}

/**
 * The `ignore` flag of a test that needs the decoder: true, with a note, when it is not built and
 * TAILGATE_REQUIRE_TOOLS is not 1.
 */
export function ignoreWithoutOtlpDecoder(): boolean {
  if (built() || Deno.env.get("TAILGATE_REQUIRE_TOOLS") === "1") return false;
  console.error(
    `note: the OTLP decoder is not built at ${otlpDecoderPath()}; its tests are ignored ` +
      "(bash .ci/install-tools builds it)",
  );
  return true;
}

/** A running decoder. */
export interface OtlpDecoder {
  /** `http://127.0.0.1:PORT`, the base URL an exporter is given. */
  baseUrl: string;
  /** Every request it decoded so far, as pdata's OTLP/JSON, in the order taken. */
  requests(): Promise<unknown[]>;
  /** Stops it and removes its output. */
  close(): Promise<void>;
}

/** Starts the decoder on a free loopback port; it is up when this resolves. */
export async function startOtlpDecoder(): Promise<OtlpDecoder> {
  const dir = await Deno.makeTempDir({ prefix: "tailgate-otlp-" });
  const out = join(dir, "requests.jsonl");
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(otlpDecoderPath(), {
      args: ["-port", "0", "-out", out],
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
  } catch (e) {
    await Deno.remove(dir, { recursive: true });
    throw e;
  }
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const address = /listening on (127\.0\.0\.1:\d+)/.exec(text)?.[1];
  if (address === undefined) {
    child.kill();
    await child.status;
    await Deno.remove(dir, { recursive: true });
    throw new Error(`the OTLP decoder did not say where it listens: ${JSON.stringify(text)}`);
  }
  return {
    baseUrl: `http://${address}`,
    requests: async () => {
      const lines = await Deno.readTextFile(out).catch(() => "");
      return lines.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
    },
    close: async () => {
      child.kill();
      await child.status;
      await reader.cancel().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
}
