/**
 * `tailgate run grpc://HOST:PORT/package.Service/Method --proto x.proto -d '{"name":"a"}' --rate
 * 2k/s`: an ad-hoc gRPC call, as ghz users type it. The flags become the text of a plan of one
 * `call:`, validated like any plan, each line remembering the flag that wrote it (adhoc_issues.ts),
 * with adhoc_plan.ts's rule: every value from the command line is one quoted scalar (the message is
 * its JSON on one line, a flow mapping that holds only itself), so no argument can add a key. Pure.
 *
 * @module
 */
import { wireTextProblem } from "../../plan/mod.ts";
import { err, ok, problems, type Result } from "../../model/mod.ts";
import {
  type AdHocFlags,
  type AdHocPlan,
  commandLine,
  comment,
  headerFlags,
  plain,
  planWriter,
  q,
  shellQuote,
  varFlags,
} from "./adhoc_plan.ts";

/** How long an ad-hoc gRPC run lasts without `--duration` (ghz users give a rate alone). */
export const AD_HOC_GRPC_DURATION = "10s";

/**
 * `tailgate run grpc://host:port/pkg.Service/Method --proto x.proto -d '{"name":"a"}' --rate 2k/s`
 * (ghz's words): a plan of one call. The message is written as the JSON it is (one line, JSON's
 * escapes: a YAML flow mapping that holds only itself); without `--duration` the run lasts
 * {@linkcode AD_HOC_GRPC_DURATION}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { adHocGrpcPlanText } from "./adhoc_grpc_plan.ts";
 * const made = adHocGrpcPlanText({
 *   url: "grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
 *   proto: ["helloworld.proto"],
 *   rate: "2k/s",
 *   slos: [],
 *   headers: [],
 * });
 * assert.ok(made.ok && made.value.text.includes('call: "helloworld.Greeter/SayHello"'));
 * ```
 */
export function adHocGrpcPlanText(flags: AdHocFlags): Result<AdHocPlan> {
  const errors: string[] = [];
  const control = wireTextProblem(flags.url, "url");
  const form = /^\s*(grpcs?):\/\/([^/?#\s]+)\/+([A-Za-z_][\w.]*[/.][A-Za-z_]\w*)\s*$/i.exec(
    flags.url,
  );
  if (control) {
    errors.push(
      `the URL ${shellQuote(flags.url)} holds ${control.char}: a URL cannot hold control ` +
        `characters; ${control.hint}`,
    );
  } else if (form === null) {
    errors.push(
      `\`${flags.url}\` is not a gRPC call's URL: write grpc://HOST:PORT/package.Service/Method, ` +
        "e.g. grpc://127.0.0.1:50051/helloworld.Greeter/SayHello",
    );
  }
  if (flags.rate === undefined) errors.push("an ad-hoc run needs --rate, e.g. --rate 1k/s");
  if (!flags.proto?.length) {
    errors.push("a gRPC call needs its .proto file: --proto FILE, e.g. --proto helloworld.proto");
  }
  for (const [flag, given] of [["--method", flags.method], ["--body", flags.body]] as const) {
    if (given !== undefined) {
      errors.push(`${flag} is for an HTTP URL; a gRPC call's message is -d '{"field": value}'`);
    }
  }
  if (flags.http2) errors.push("--http2 is for an HTTP URL; a gRPC call is always HTTP/2");
  let message: string | undefined;
  if (flags.message !== undefined) {
    try {
      const value = JSON.parse(flags.message);
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error();
      // JSON's escapes, and those `q` adds, so the line holds no line break of YAML's.
      message = JSON.stringify(value).replace(
        /[\u007f-\u009f\u2028\u2029\ufeff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
    } catch {
      errors.push(
        `-d ${
          shellQuote(flags.message)
        }: give the message as a JSON object, e.g. -d '{"name":"a"}'`,
      );
    }
  }
  const headers = headerFlags(flags.headers, errors, 'metadata as "name: value"');
  const vars = varFlags(flags.vars ?? [], errors);
  if ((flags.data ?? []).length) {
    errors.push("--data feeds an HTTP URL's templates; write a plan for a gRPC call fed by data");
  }
  if (errors.length || form === null) return err(problems(errors));
  const [, scheme, authority, callText] = form;
  const call = callText.includes("/")
    ? callText
    : `${callText.slice(0, callText.lastIndexOf("."))}/${
      callText.slice(callText.lastIndexOf(".") + 1)
    }`;
  const { add, fromUrl, plan } = planWriter(flags.url);
  for (const line of comment(`tailgate run ${commandLine(flags)}`)) add(line);
  fromUrl(`name: ${q(`ad-hoc ${call}`)}`);
  fromUrl(`target: ${q(`${scheme.toLowerCase()}://${authority}`)}`);
  add("grpc:");
  add("  proto:");
  for (const p of flags.proto!) add(`    - ${q(p)}`, "--proto", p);
  if (vars.length) {
    add("vars:");
    for (const [line, v] of vars) add(`  ${line}`, "--var", v);
  }
  add("requests:");
  fromUrl(`  - call: ${q(call)}`);
  if (message !== undefined) add(`    message: ${message}`, "-d", flags.message!);
  if (headers.length) {
    add("    metadata:");
    for (const [k, v, h] of headers) add(`      ${q(k)}: ${q(v)}`, "-H", h);
  }
  add("load:");
  if (flags.connections !== undefined) {
    add(`  connections: ${plain(flags.connections)}`, "--connections", flags.connections);
  }
  add("  stages:");
  const stage = (name: string, duration: [string, string] | undefined, warmup: boolean) => {
    add(`    - name: ${name}`);
    add(`      rate: ${plain(flags.rate!)}`, "--rate", flags.rate!);
    if (duration) add(`      duration: ${plain(duration[1])}`, duration[0], duration[1]);
    else add(`      duration: ${AD_HOC_GRPC_DURATION} # no --duration: ${AD_HOC_GRPC_DURATION}`);
    if (warmup) add("      warmup: true", "--warmup", duration![1]);
  };
  if (flags.warmup !== undefined) stage("warmup", ["--warmup", flags.warmup], true);
  stage("steady", flags.duration === undefined ? undefined : ["--duration", flags.duration], false);
  if (flags.slos.length) {
    add("slo:");
    for (const s of flags.slos) add(`  - ${q(s)}`, "--slo", s);
  }
  return ok(plan());
}
