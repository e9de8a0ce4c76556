/**
 * Renders request n of a templated plan into bytes: each label's template compiled once into a
 * list of steps (fixed bytes, or a drawn value in its encoding), then written for n into a
 * reusable buffer. The values are pure functions of the plan's seed and n (schedule/), so the
 * bytes are too: the same plan and seed send the same requests. The head is laid out exactly as
 * http1_request.ts lays out a fixed request.
 *
 * @module
 */
import type {
  PlanVar,
  RequestBasics,
  ResolvedPlan,
  TemplateEncoding,
  TemplatePart,
} from "../../plan/mod.ts";
import { mixLabels } from "../../plan/runtime/mod.ts";
import type { PreparedRequest } from "../types.ts";
import { type DataUse, RowCursor } from "../../schedule/mod.ts";
import { choiceIndexAt, drawVar, uuidWords } from "../../schedule/mod.ts";
import { headLayout, traceLines, TRACEPARENT_PREFIX, USER_AGENT_LINE } from "../http1/mod.ts";
import { ByteWriter } from "./byte_writer.ts";
import { EncodedColumn, encodeText } from "./encoded_values.ts";

const encoder = new TextEncoder();

type Step =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "column"; source: number; column: EncodedColumn }
  | { kind: "var"; index: number; encoded?: Uint8Array[]; quoted: boolean }
  /** A value a journey's earlier step captured: its slot among the journey's captures. */
  | { kind: "captured"; slot: number; encoding: TemplateEncoding };

interface Program {
  head: Step[];
  /** Steps of the body; undefined when it has none. */
  body?: Step[];
  /** Where `Content-Length: ` goes: true when the request carries one. */
  contentLength: boolean;
  /** Sources this label reads (their row is drawn once per request). */
  sources: number[];
  /** Whether any step draws a value (else the request is the same every time). */
  draws: boolean;
  /** A gRPC message rendered as JSON text, sent encoded and framed (the renderer's `encodeBody`). */
  encode?: boolean;
}

/**
 * Encodes and frames a gRPC label's rendered message: the first `length` bytes of `json` (its
 * JSON text) as the 5-octet prefix and protobuf the call sends.
 */
export type EncodeBody = (label: number, json: Uint8Array, length: number) => Uint8Array;

/**
 * The renderer of one plan's templated requests.
 */
export class RequestRenderer {
  /** Per label: its program, or undefined for a label without a template. */
  readonly #programs: Array<Program | undefined>;
  readonly #rows: RowCursor;
  readonly #uses: DataUse[];
  readonly #entryWeights: readonly number[];
  /** The captured values of the journey step being rendered ({@linkcode renderStep}). */
  #captured: ReadonlyArray<{ text: string; json: string } | undefined> = [];
  readonly #vars: readonly PlanVar[];
  readonly #seed: number;
  readonly #body = new ByteWriter(256);
  /** Per source: the row drawn for the request being rendered. */
  readonly #row: Int32Array;
  readonly #words = new Uint32Array(4);
  /** Per var: its value's text for request `#varAt[v]`, drawn once however often it is used. */
  readonly #varText: ByteWriter[];
  readonly #varAt: Float64Array;
  /** Which sources each label reads (for draw counts). */
  readonly sourcesOf: readonly (readonly number[])[];

  readonly #encodeBody: EncodeBody | undefined;
  /** A traced plan's trace context lines (a placeholder `traceparent`), else undefined. */
  readonly #traceLines: Uint8Array | undefined;
  /**
   * Where the last rendered request's `traceparent` value is in its bytes (patched per send);
   * -1 when the plan sends none.
   */
  traceAt = -1;

  /**
   * `fileBodies[label]`: the bytes of a `file` body that is not a template (or a gRPC call's
   * fixed message, framed); `encodeBody` frames a gRPC call's rendered message.
   */
  constructor(
    plan: ResolvedPlan,
    fileBodies: ReadonlyArray<Uint8Array | undefined>,
    encodeBody?: EncodeBody,
  ) {
    this.#encodeBody = encodeBody;
    this.#traceLines = plan.trace ? encoder.encode(traceLines(plan.trace)) : undefined;
    const data = plan.data ?? [];
    this.#vars = plan.vars ?? [];
    this.#seed = plan.load.seed;
    const columns = new Map<string, EncodedColumn>();
    const column = (s: number, c: number, encoding: TemplatePart & { kind: "ref" }) => {
      const key = `${s}/${c}/${encoding.encoding}`;
      let col = columns.get(key);
      if (col === undefined) {
        col = new EncodedColumn(data[s].text[c], data[s].json?.[c], encoding.encoding);
        columns.set(key, col);
      }
      return col;
    };
    const mix = mixLabels(plan);
    /** Per label: its journey's capture names (a slot each), or undefined for a single request. */
    const captureSlots = mix.labels.map((l) =>
      l.kind === "step"
        ? plan.journeys![l.journey].steps.flatMap((s) => s.captures.map((c) => c.name))
        : undefined
    );
    let slots: string[] | undefined;
    const compile = (parts: readonly TemplatePart[], sources: Set<number>): Step[] =>
      parts.map((p): Step => {
        if (p.kind === "text") return { kind: "bytes", bytes: encoder.encode(p.text) };
        if (p.kind === "secret") return { kind: "bytes", bytes: encoder.encode(p.value) };
        if (p.kind === "capture" && slots?.includes(p.name)) {
          return { kind: "captured", slot: slots.indexOf(p.name), encoding: p.encoding };
        }
        if (p.kind === "capture") {
          throw new Error(
            `capture \`${p.name}\` reached the engine unbound (runner/session binds it)`,
          );
        }
        if (p.ref.kind === "column") {
          const { source: name, column: col } = p.ref;
          const s = data.findIndex((d) => d.name === name);
          sources.add(s);
          return { kind: "column", source: s, column: column(s, data[s].columns.indexOf(col), p) };
        }
        const name = p.ref.name;
        const index = this.#vars.findIndex((v) => v.name === name);
        const spec = this.#vars[index].spec;
        const encoded = spec.kind === "choice"
          ? spec.values.map((v) =>
            encoder.encode(
              encodeText(String(v), p.encoding, typeof v === "string" ? undefined : String(v)),
            )
          )
          : undefined;
        return {
          kind: "var",
          index,
          encoded,
          quoted: p.encoding === "json_value" && spec.kind === "uuid",
        };
      });
    this.#programs = mix.requests.map((r, label) => {
      if (r.template === undefined) return undefined;
      slots = captureSlots[label];
      const sources = new Set<number>();
      const program = compileRequest(r, compile, sources, fileBodies[label], !!plan.trace);
      const draws = [...program.head, ...program.body ?? []].some((step) => step.kind !== "bytes");
      return { ...program, sources: [...sources], draws };
    });
    this.sourcesOf = this.#programs.map((p) => p?.sources ?? []);
    // Rows are drawn per entry: a journey's steps share its row (drawn once per journey).
    const entryOf = mix.labels.map((l, label) =>
      l.kind === "step" ? plan.requests.length + l.journey : label
    );
    this.#uses = data.map((d, s) => ({
      order: d.order,
      rows: d.rows,
      labels: [
        ...new Set(this.sourcesOf.flatMap((list, l) => list.includes(s) ? [entryOf[l]] : [])),
      ],
    }));
    this.#entryWeights = mix.entryWeights;
    this.#rows = this.rowCursor();
    this.#row = new Int32Array(data.length);
    this.#varText = this.#vars.map(() => new ByteWriter(48));
    this.#varAt = new Float64Array(this.#vars.length).fill(-1);
  }

  /** True when `label` is rendered per request (its template draws values). */
  isTemplated(label: number): boolean {
    return this.#programs[label]?.draws === true;
  }

  /** True when some label is rendered per request. */
  get drawsValues(): boolean {
    return this.#programs.some((p) => p?.draws);
  }

  /**
   * The request sent for every request of `label`: `prepared` as it is, or for a template that
   * draws nothing (it reads only `${env.NAME}`) its bytes rendered once, before the run.
   */
  fixedRequest(label: number, prepared: PreparedRequest): PreparedRequest {
    const program = this.#programs[label];
    if (program === undefined || program.draws) return prepared;
    const out = new ByteWriter();
    this.render(0, label, out);
    return { ...prepared, bytes: out.view().slice(), traceAt: this.traceAt };
  }

  /**
   * Writes request `n` (of label `label`) into `out`, from its start. Request indices passed to
   * one renderer never go down.
   */
  render(n: number, label: number, out: ByteWriter): void {
    const program = this.#programs[label]!;
    this.#rows.at(n);
    for (const s of program.sources) this.#row[s] = this.#rows.rowOf(s);
    this.#emit(program, n, out, label);
  }

  /**
   * Writes step `label` of journey `n` into `out`: its data rows `rows` (per source, drawn once
   * per journey by a {@linkcode rowCursor}) and `captured`, the journey's captured values by
   * slot. Journeys may be rendered in any order.
   */
  renderStep(
    n: number,
    label: number,
    out: ByteWriter,
    rows: Int32Array,
    captured: ReadonlyArray<{ text: string; json: string } | undefined>,
  ): void {
    const program = this.#programs[label]!;
    for (const s of program.sources) this.#row[s] = rows[s];
    this.#captured = captured;
    this.#emit(program, n, out, label);
    this.#captured = [];
  }

  /** A fresh cursor over the rows entry n takes (as this renderer draws them), n rising. */
  rowCursor(): RowCursor {
    return new RowCursor(this.#entryWeights, this.#uses, this.#seed);
  }

  /** How many data sources the plan has. */
  get sources(): number {
    return this.#row.length;
  }

  #emit(program: Program, n: number, out: ByteWriter, label: number): void {
    out.reset();
    let body: Uint8Array | undefined;
    let bodyLength = 0;
    if (program.body !== undefined) {
      this.#body.reset();
      this.#write(program.body, n, this.#body);
      body = this.#body.buf;
      bodyLength = this.#body.length;
      if (program.encode) {
        if (this.#encodeBody === undefined) {
          throw new Error(`label ${label}: a gRPC message rendered without its codec`);
        }
        body = this.#encodeBody(label, body, bodyLength);
        bodyLength = body.length;
      }
    }
    this.#write(program.head, n, out);
    // Trace context last but Content-Length, as prepareRequest() lays a fixed request out.
    if (this.#traceLines !== undefined) {
      this.traceAt = out.length + TRACEPARENT_PREFIX.length;
      out.bytes(this.#traceLines);
    }
    if (program.contentLength) {
      out.ascii("Content-Length: ");
      out.integer(bodyLength);
      out.ascii("\r\n");
    }
    out.ascii("\r\n");
    if (body !== undefined) out.range(body, 0, bodyLength);
  }

  /** Var `index`'s text for request `n` (a uuid, counter or int: alike in every encoding). */
  #varValue(index: number, n: number): ByteWriter {
    const text = this.#varText[index];
    if (this.#varAt[index] === n) return text;
    const spec = this.#vars[index].spec;
    text.reset();
    if (spec.kind === "uuid") text.uuid(uuidWords(this.#seed, index, n, this.#words));
    else text.integer(spec.kind === "counter" ? n : drawVar(spec, this.#seed, index, n) as number);
    this.#varAt[index] = n;
    return text;
  }

  #write(steps: readonly Step[], n: number, out: ByteWriter): void {
    for (const step of steps) {
      if (step.kind === "bytes") {
        out.bytes(step.bytes);
      } else if (step.kind === "column") {
        const { bytes, starts } = step.column;
        const r = this.#row[step.source];
        out.range(bytes, starts[r], starts[r + 1]);
      } else if (step.kind === "captured") {
        const v = this.#captured[step.slot];
        if (v !== undefined) out.utf8(encodeText(v.text, step.encoding, v.json));
      } else if (step.encoded !== undefined) {
        const e = step.encoded;
        const b = e[choiceIndexAt(this.#seed, step.index, n, e.length)];
        out.range(b, 0, b.length);
      } else {
        const text = this.#varValue(step.index, n);
        if (step.quoted) out.ascii('"');
        out.range(text.buf, 0, text.length);
        if (step.quoted) out.ascii('"');
      }
    }
  }
}

function compileRequest(
  r: RequestBasics,
  compile: (parts: readonly TemplatePart[], sources: Set<number>) => Step[],
  sources: Set<number>,
  fileBody: Uint8Array | undefined,
  traced: boolean,
): Omit<Program, "sources" | "draws"> {
  const t = r.template!;
  const url = new URL(r.url);
  const hasBody = t.body !== undefined || fileBody !== undefined;
  const layout = headLayout(r.method, t.headers.map((h) => h.name), hasBody, traced);
  const head: Step[] = [
    { kind: "bytes", bytes: encoder.encode(`${r.method} `) },
    ...compile(t.target, sources),
    { kind: "bytes", bytes: encoder.encode(" HTTP/1.1\r\n") },
  ];
  if (layout.host) head.push({ kind: "bytes", bytes: encoder.encode(`Host: ${url.host}\r\n`) });
  for (const h of t.headers) {
    if (!layout.sends(h.name)) continue;
    head.push({ kind: "bytes", bytes: encoder.encode(`${h.name}: `) });
    head.push(...compile(h.parts, sources));
    head.push({ kind: "bytes", bytes: encoder.encode("\r\n") });
  }
  if (layout.userAgent) head.push({ kind: "bytes", bytes: encoder.encode(USER_AGENT_LINE) });
  // gRPC requires `te: trailers`, as prepareRequest() adds it to a fixed call.
  const grpc = r.body?.kind === "grpc";
  if (grpc) head.push({ kind: "bytes", bytes: encoder.encode("te: trailers\r\n") });
  const body: Step[] | undefined = t.body
    ? compile(t.body, sources)
    : fileBody
    ? [{ kind: "bytes", bytes: fileBody }]
    : undefined;
  return {
    head: merge(head),
    ...(body ? { body: merge(body) } : {}),
    contentLength: layout.contentLength,
    // A rendered message is encoded; a fixed one (`fileBody`) came framed.
    ...(grpc && t.body ? { encode: true } : {}),
  };
}

/** Joins neighbouring fixed byte steps into one. */
function merge(steps: Step[]): Step[] {
  const out: Step[] = [];
  for (const s of steps) {
    const last = out.at(-1);
    if (s.kind === "bytes" && last?.kind === "bytes") {
      const joined = new Uint8Array(last.bytes.length + s.bytes.length);
      joined.set(last.bytes);
      joined.set(s.bytes, last.bytes.length);
      out[out.length - 1] = { kind: "bytes", bytes: joined };
    } else out.push(s);
  }
  return out;
}
