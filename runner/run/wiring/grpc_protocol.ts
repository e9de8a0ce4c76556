/**
 * gRPC over a run's transport: HTTP/2 as http2_protocol.ts wires it (the same pool, streams,
 * sockets on either I/O path, engine record), each stream slot a `GrpcStreamSlot`, which reads
 * its response's messages and `grpc-status`. Taken for a plan with `grpc` (protocol_choice.ts).
 *
 * @module
 */
import { GrpcStreamSlot } from "../../engine/mod.ts";
import { http2With } from "./http2_protocol.ts";
import type { Protocol } from "./protocol.ts";

/** The run's HTTP/2 pool of gRPC stream slots (the plan resolved to `load.http` "2"). */
export const grpcProtocol: Protocol = (o) => http2With((slot) => new GrpcStreamSlot(slot), o);
