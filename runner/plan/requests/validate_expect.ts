/**
 * Validates the statuses a request expects.
 *
 * @module
 */
import type { YamlNode } from "../read/mod.ts";
import type { PlanReader } from "../read/mod.ts";
import type { StatusExpectation } from "../types.ts";
import { didYouMean } from "../read/mod.ts";
import { GRPC_STATUS_BASE, GRPC_STATUS_NAMES } from "../../model/mod.ts";

/**
 * Validates a request's `expect`: status codes (`200`, `[200, 204]`) and classes (`2xx`), or for
 * a gRPC call (`grpc`) status names or codes (`[OK, NOT_FOUND]`, `5`), stored as
 * `GRPC_STATUS_BASE + code`; reporting problems on `reader`.
 */
export function readExpect(
  reader: PlanReader,
  node: YamlNode,
  path: string,
  grpc = false,
): StatusExpectation | undefined {
  const items = node.kind === "seq" ? node.items : [node];
  if (grpc) return readGrpcExpect(reader, items, path);
  const out: StatusExpectation = { codes: [], classes: [] };
  for (const item of items) {
    const v = item.kind === "scalar" ? item.value : undefined;
    if (typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599) out.codes.push(v);
    else if (typeof v === "string" && /^[1-5]xx$/i.test(v)) out.classes.push(Number(v[0]));
    else {
      reader.error(
        item,
        path,
        "`expect` takes status codes (`200`, `[200, 204]`) or classes (`2xx`)",
      );
      return undefined;
    }
  }
  return out;
}

function readGrpcExpect(
  reader: PlanReader,
  items: readonly YamlNode[],
  path: string,
): StatusExpectation | undefined {
  const out: StatusExpectation = { codes: [], classes: [] };
  for (const item of items) {
    const v = item.kind === "scalar" ? item.value : undefined;
    const code = typeof v === "number"
      ? (Number.isInteger(v) && v >= 0 && v <= 0x7fffffff ? v : -1)
      : typeof v === "string"
      ? GRPC_STATUS_NAMES.indexOf(v.toUpperCase())
      : -1;
    if (code < 0) {
      const guess = typeof v === "string"
        ? didYouMean(v.toUpperCase(), GRPC_STATUS_NAMES)
        : undefined;
      reader.error(
        item,
        path,
        `\`${v}\` is not a gRPC status: \`expect\` on a call takes status names or codes`,
        guess !== undefined ? `did you mean \`${guess}\`?` : "e.g. `[OK, NOT_FOUND]` or `5`",
      );
      return undefined;
    }
    out.codes.push(GRPC_STATUS_BASE + code);
  }
  return out;
}
