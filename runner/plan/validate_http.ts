/**
 * The HTTP version a load sends: `load.http` (`1.1` or `2`, read by the plan language as a choice
 * that takes numbers) and `load.max_streams`, the concurrent streams per connection, which only
 * HTTP/2 has. Both stay out of the resolved load when the plan does not give them: no `http` is
 * HTTP/1.1, no `max_streams` what the server's SETTINGS allow, at most 100 (`SERVER_STREAMS_CAP`
 * of runner/model/run_result.ts). The feasibility warning counts the streams (slo/feasibility.ts).
 *
 * @module
 */
import type { PlanReader, Section } from "./read/mod.ts";
import type { PlanLoad } from "./types.ts";

/**
 * The load's `http` and `max_streams`, each only when given; `max_streams` without `http: 2` is a
 * located error (HTTP/1.1 sends one request at a time on a connection).
 */
export function readHttpVersion(
  reader: PlanReader,
  s: Section,
): Pick<PlanLoad, "http" | "maxStreams"> {
  const before = reader.issues.length;
  const given = s.has("http") ? s.get<string>("http") : undefined;
  // A wrong `http` is reported already: whether `max_streams` fits it cannot be told.
  const broken = reader.issues.length > before;
  const http = given === "1.1" || given === "2" ? given : undefined;
  const maxStreams = s.has("max_streams") ? s.get<number>("max_streams") : undefined;
  if (s.has("max_streams") && http !== "2" && !broken) {
    reader.error(
      s.at("max_streams")!,
      s.pathOf("max_streams"),
      "`max_streams` is a setting of HTTP/2, and this load sends HTTP/1.1" +
        (http === undefined ? " (the default)" : ""),
      "add `http: 2` to `load`, or remove `max_streams` (HTTP/1.1 sends one request at a time " +
        "on a connection)",
    );
  }
  return {
    ...(http === undefined || broken ? {} : { http }),
    ...(http === "2" && maxStreams !== undefined ? { maxStreams } : {}),
  };
}
