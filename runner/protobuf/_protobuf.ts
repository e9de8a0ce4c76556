/**
 * The only importer of `npm:protobufjs`: parses `.proto` text into one schema, describes its
 * services and message fields, and encodes and decodes messages. No protobufjs type leaves this
 * file: the rest of tailgate sees {@linkcode ProtoRoot} (opaque), {@linkcode ServiceInfo} and
 * {@linkcode FieldInfo}. Loaded only on demand (gRPC support, the exporters), so an HTTP run
 * never pays for it.
 *
 * @module
 */
import protobuf from "npm:protobufjs@8.8.1";
import { err, ok, problem, type Result } from "../model/mod.ts";

/** A schema being built or used: opaque outside this file. */
export type ProtoRoot = { readonly __protoRoot: unique symbol };

/** A service's method, as the plan names it. */
export interface MethodInfo {
  name: string;
  /** Full names without a leading dot (`helloworld.HelloRequest`). */
  requestType: string;
  responseType: string;
  requestStream: boolean;
  responseStream: boolean;
}

/** A service of the schema. */
export interface ServiceInfo {
  /** Full name without a leading dot (`helloworld.Greeter`). */
  fullName: string;
  name: string;
  methods: MethodInfo[];
}

/** What a field holds: a scalar by its proto type, an enum with its names, or a message. */
export type FieldValueKind =
  | { kind: "scalar"; type: string }
  | { kind: "enum"; type: string; values: Record<string, number> }
  | { kind: "message"; type: string };

/** One field of a message type. */
export interface FieldInfo {
  name: string;
  jsonName: string;
  value: FieldValueKind;
  repeated: boolean;
  /** For a map field: its key's proto type. */
  mapKey?: string;
  /** The oneof it belongs to, if any. */
  oneof?: string;
}

type Root = InstanceType<typeof protobuf.Root>;
const asRoot = (r: ProtoRoot) => r as unknown as Root;
const noDot = (name: string) => name.replace(/^\./, "");

/** A new, empty schema. */
export function protoRoot(): ProtoRoot {
  return new protobuf.Root() as unknown as ProtoRoot;
}

/** Parses one file's text into `root` (field names as written); its imports, as written. */
export function parseInto(root: ProtoRoot, text: string): Result<{ imports: string[] }> {
  try {
    const parsed = protobuf.parse(text, asRoot(root), { keepCase: true });
    return ok({ imports: [...parsed.imports ?? [], ...parsed.weakImports ?? []] });
  } catch (e) {
    return err(problem((e as Error).message));
  }
}

/** Whether `file` is one of the well-known types protobufjs carries (`google/protobuf/…`). */
export function wellKnown(file: string): boolean {
  return Object.hasOwn(protobuf.common, file) && typeof commonFiles()[file] === "object";
}

/** Adds a well-known file's types to `root`. */
export function addWellKnown(root: ProtoRoot, file: string): void {
  asRoot(root).addJSON(commonFiles()[file].nested ?? {});
}

function commonFiles(): Record<string, protobuf.INamespace> {
  return protobuf.common as unknown as Record<string, protobuf.INamespace>;
}

/** Resolves every type reference; a problem names the first that does not resolve. */
export function resolveAll(root: ProtoRoot): Result<void> {
  try {
    asRoot(root).resolveAll();
    return ok(undefined);
  } catch (e) {
    return err(problem((e as Error).message));
  }
}

/** The schema as plain JSON (for workers). */
export function rootJson(root: ProtoRoot): unknown {
  return JSON.parse(JSON.stringify(asRoot(root).toJSON()));
}

/** A schema from {@linkcode rootJson}'s form, resolved. */
export function rootFromJson(json: unknown): ProtoRoot {
  const root = protobuf.Root.fromJSON(json as protobuf.INamespace);
  root.resolveAll();
  return root as unknown as ProtoRoot;
}

/** Every service of the schema, with its methods. */
export function servicesOf(root: ProtoRoot): ServiceInfo[] {
  const out: ServiceInfo[] = [];
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Service) {
        out.push({
          fullName: noDot(nested.fullName),
          name: nested.name,
          methods: nested.methodsArray.map((m) => {
            m.resolve();
            return {
              name: m.name,
              requestType: noDot(m.resolvedRequestType?.fullName ?? m.requestType),
              responseType: noDot(m.resolvedResponseType?.fullName ?? m.responseType),
              requestStream: m.requestStream === true,
              responseStream: m.responseStream === true,
            };
          }),
        });
      }
      if (nested instanceof protobuf.Namespace) walk(nested);
    }
  };
  walk(asRoot(root));
  return out;
}

/** The fields of message type `type` (full name), undefined when there is no such message. */
export function fieldsOf(root: ProtoRoot, type: string): FieldInfo[] | undefined {
  const t = lookup(root, type);
  if (t === undefined) return undefined;
  return t.fieldsArray.map((f) => {
    f.resolve();
    const resolved = f.resolvedType;
    const value: FieldValueKind = resolved instanceof protobuf.Enum
      ? { kind: "enum", type: noDot(resolved.fullName), values: { ...resolved.values } }
      : resolved instanceof protobuf.Type
      ? { kind: "message", type: noDot(resolved.fullName) }
      : { kind: "scalar", type: f.type };
    const map = f instanceof protobuf.MapField ? { mapKey: f.keyType } : {};
    return {
      name: f.name,
      jsonName: camel(f.name),
      value,
      repeated: f.repeated,
      ...map,
      ...(f.partOf ? { oneof: f.partOf.name } : {}),
    };
  });
}

/** The protobuf bytes of `plain` (the object form {@linkcode fieldsOf} describes) as `type`. */
export function encode(root: ProtoRoot, type: string, plain: unknown): Uint8Array {
  const t = lookupOrThrow(root, type);
  const bytes = t.encode(t.fromObject(plain as Record<string, unknown>)).finish();
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Message `bytes` of `type` in its JSON form: int64 as text, enums by name, bytes as base64.
 * Throws on bytes that are not such a message.
 */
export function decode(root: ProtoRoot, type: string, bytes: Uint8Array): unknown {
  const t = lookupOrThrow(root, type);
  return t.toObject(t.decode(bytes), {
    longs: String,
    enums: String,
    bytes: String,
    json: true,
  });
}

function lookup(root: ProtoRoot, type: string): protobuf.Type | undefined {
  try {
    return asRoot(root).lookupType(type.startsWith(".") ? type : `.${type}`);
  } catch {
    return undefined;
  }
}

function lookupOrThrow(root: ProtoRoot, type: string): protobuf.Type {
  const t = lookup(root, type);
  if (t === undefined) throw new Error(`no message type ${type} in the plan's .proto files`);
  return t;
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
