/**
 * The HTTP version a load sends: `load.http` (`1.1` or `2`, read by the plan language as a choice
 * that takes numbers), `load.max_streams`, the concurrent streams per connection, and
 * `load.window_mib`, the flow-control window offered, which only HTTP/2 has. Each stays out of the
 * resolved load when the plan does not give it: no `http` is HTTP/1.1, no `max_streams` what the
 * server's SETTINGS allow, at most 100 (`SERVER_STREAMS_CAP` of runner/model/run_result.ts), no
 * `window_mib` 16 MiB. The feasibility warning counts the streams (slo/feasibility.ts).
 *
 * @module
 */
import type { PlanReader, Section, YamlNode } from "./read/mod.ts";
import type { PlanLoad } from "./types.ts";

/**
 * A gRPC plan's load: HTTP/2 whether or not `http: 2` is written; `http: 1.1` is a located error
 * (gRPC runs over HTTP/2 only).
 */
export function grpcLoad(reader: PlanReader, node: YamlNode, load: PlanLoad): PlanLoad {
  if (load.http === "1.1" && node.kind === "map") {
    const entry = node.entries.find((e) => e.key === "http");
    reader.error(
      entry?.value ?? node,
      "load.http",
      "gRPC runs over HTTP/2: this plan cannot send HTTP/1.1",
      "remove `http` (a gRPC plan sends HTTP/2) or write `http: 2`",
    );
  }
  return { ...load, http: "2" };
}

/**
 * The load's `http` and `max_streams`, each only when given; `max_streams` without `http: 2` is a
 * located error (HTTP/1.1 sends one request at a time on a connection).
 */
export function readHttpVersion(
  reader: PlanReader,
  s: Section,
): Pick<PlanLoad, "http" | "maxStreams" | "windowMib"> {
  const before = reader.issues.length;
  const given = s.has("http") ? s.get<string>("http") : undefined;
  // A wrong `http` is reported already: whether `max_streams` fits it cannot be told.
  const broken = reader.issues.length > before;
  const http = given === "1.1" || given === "2" ? given : undefined;
  const maxStreams = s.has("max_streams") ? s.get<number>("max_streams") : undefined;
  const windowMib = s.has("window_mib") ? s.get<number>("window_mib") : undefined;
  for (const key of ["max_streams", "window_mib"]) {
    if (!s.has(key) || http === "2" || broken) continue;
    reader.error(
      s.at(key)!,
      s.pathOf(key),
      `\`${key}\` is a setting of HTTP/2, and this load sends HTTP/1.1` +
        (http === undefined ? " (the default)" : ""),
      key === "max_streams"
        ? "add `http: 2` to `load`, or remove `max_streams` (HTTP/1.1 sends one request at a " +
          "time on a connection)"
        : "add `http: 2` to `load`, or remove `window_mib` (HTTP/1.1 has no flow-control window)",
    );
  }
  return {
    ...(http === undefined || broken ? {} : { http }),
    ...(http === "2" && maxStreams !== undefined ? { maxStreams } : {}),
    ...(http === "2" && windowMib !== undefined ? { windowMib } : {}),
  };
}
