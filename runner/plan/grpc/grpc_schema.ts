/**
 * A request's `call:` found in the plan's `.proto` files: `package.Service/Method` (or
 * `package.Service.Method`, as ghz writes it; a service's short name when only one service has
 * it), with did-you-mean over services and methods. Client- and bidi-streaming methods are
 * refused until this version sends request streams.
 *
 * @module
 */
import { err, ok, problem, type Result } from "../../model/mod.ts";
import { didYouMean } from "../read/mod.ts";
import type { PlanGrpcCall } from "../types.ts";
import type { ServiceInfo } from "../../protobuf/mod.ts";
import type { ProtoSchema } from "./proto_files.ts";

/**
 * The call `text` names, resolved against `schema` (without a deadline: the request adds it).
 */
export function lookupCall(
  schema: Pick<ProtoSchema, "services">,
  text: string,
): Result<PlanGrpcCall> {
  const form = /^\/?([A-Za-z_][\w.]*)[/.]([A-Za-z_]\w*)$/.exec(text.trim());
  if (form === null) {
    return err(problem(
      `\`${text}\` is not a call`,
      "write `package.Service/Method`, e.g. `helloworld.Greeter/SayHello`",
    ));
  }
  const [, serviceText, methodText] = form;
  const services = schema.services;
  if (services.length === 0) {
    return err(problem("the plan's .proto files define no service", "name the file that does"));
  }
  const service = findService(services, serviceText);
  if (service === undefined) {
    const names = services.map((s) => s.fullName);
    const guess = didYouMean(serviceText, names) ??
      didYouMean(serviceText, services.map((s) => s.name));
    const full = services.find((s) => s.fullName === guess || s.name === guess)?.fullName;
    return err(problem(
      `no service \`${serviceText}\` in the plan's .proto files`,
      full !== undefined
        ? `did you mean \`${full}/${methodText}\`?`
        : `the services are ${names.map((n) => `\`${n}\``).join(", ")}`,
    ));
  }
  const method = service.methods.find((m) => m.name === methodText);
  if (method === undefined) {
    const names = service.methods.map((m) => m.name);
    const guess = didYouMean(methodText, names);
    return err(problem(
      `no method \`${methodText}\` in ${service.fullName}`,
      guess !== undefined
        ? `did you mean \`${service.fullName}/${guess}\`?`
        : `its methods are ${names.map((n) => `\`${n}\``).join(", ")}`,
    ));
  }
  if (method.requestStream) {
    const kind = method.responseStream ? "bidirectional streaming" : "client streaming";
    return err(problem(
      `\`${service.fullName}/${method.name}\` is a ${kind} method, which this version does not call`,
      "call a unary or server-streaming method; request streams may come later",
    ));
  }
  return ok({
    service: service.fullName,
    method: method.name,
    path: `/${service.fullName}/${method.name}`,
    requestType: method.requestType,
    responseType: method.responseType,
    serverStreaming: method.responseStream,
  });
}

function findService(services: readonly ServiceInfo[], text: string): ServiceInfo | undefined {
  const full = services.find((s) => s.fullName === text);
  if (full !== undefined) return full;
  const short = services.filter((s) => s.name === text);
  return short.length === 1 ? short[0] : undefined;
}
