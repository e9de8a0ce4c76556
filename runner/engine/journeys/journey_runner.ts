/**
 * The journeys of one engine (docs/decisions/journeys.md, "Timing that stays honest"): a table of
 * journeys under way and a heap of their pending steps. Journey n starts when its first step is
 * taken from the schedule; when step k completes, step k+1 is made due at that completion plus
 * its think time (schedule/next_step_due.ts), rendered at once with the journey's captured values
 * and its drawn values (drawn once, from n), and counted as scheduled in the interval of its due
 * time; a step that fails, fails a check or misses a capture ends its journey and every later
 * step is counted `skipped`. A journey holds no connection: between steps it is a slot here.
 *
 * @module
 */
import type { ErrorKind } from "../../model/mod.ts";
import type { PlanJourney } from "../../plan/mod.ts";
import { nextStepDueMs } from "../../schedule/mod.ts";
import type { RowCursor } from "../../schedule/mod.ts";
import { type CapturedValue, type MessageDecoder, ResponseView } from "../response/mod.ts";
import { ByteWriter, type RequestRenderer } from "../render/mod.ts";
import type { PreparedRequest, RecordSink, RequestSource, ResponseOutcome } from "../types.ts";
import { judgeStep, type StepRules } from "./judge_step.ts";
import { StepHeap } from "./step_heap.ts";

/** How a journey ended: every step passed, one failed, or the run stopped first. */
export type JourneyEnd = "completed" | "failed" | "stopped";

/** Where the journeys' own figures go (the recorder implements it). */
export interface JourneySink extends Pick<RecordSink, "scheduled"> {
  /**
   * Journey `journey` of stage `stageIndex` ended: `journeyMs` from its fire time to its last
   * step's end with `thinkMs` (its steps' think time, summed) taken out.
   */
  journeyEnded(
    stageIndex: number,
    journey: number,
    end: JourneyEnd,
    journeyMs: number,
    thinkMs: number,
  ): void;
  /** A step of label `labelIndex` was not sent: its journey ended before it. */
  stepSkipped(stageIndex: number, labelIndex: number): void;
  /** A step counted as scheduled (due at `fireMs`) will not be sent: the run stopped first. */
  withdrawn(fireMs: number, stageIndex: number, labelIndex: number): void;
}

/** One journey under way. */
interface Journey {
  n: number;
  journey: number;
  step: number;
  label: number;
  stageIndex: number;
  /** Its fire time, and the current step's due time (ms from the run's start). */
  fireMs: number;
  dueMs: number;
  thinkMs: number;
  captured: (CapturedValue | undefined)[];
  rows: Int32Array;
  writer: ByteWriter | undefined;
  request: PreparedRequest | undefined;
  /** The slot's request object, refilled for each rendered step (no object per step). */
  rendered: PreparedRequest | undefined;
  failed: ErrorKind | undefined;
}

/** What the journeys of one engine need. */
export interface JourneyRunnerOptions {
  journeys: readonly PlanJourney[];
  /** Per journey: its first step's label (its steps' labels follow). */
  firstStepLabel: readonly number[];
  /** Every label's request as prepared once (a step without a template is sent as it is). */
  requests: readonly PreparedRequest[];
  seed: number;
  sink: JourneySink;
  /** Renders steps with templates (captures, vars, data); absent when no step has one. */
  renderer?: RequestRenderer;
  /** Where first steps rendered ahead of the schedule come from. */
  source?: RequestSource;
  /** Per label, a gRPC call's response decoder (its captures read the message's JSON form). */
  decoders?: readonly (MessageDecoder | undefined)[];
}

/**
 * The journey table and the pending-step heap of one engine.
 */
export class JourneyRunner {
  readonly #o: JourneyRunnerOptions;
  readonly #journeyOf: Int32Array;
  readonly #rules: StepRules[];
  /** The view each judged step's response is read through (its captures), reused. */
  readonly #view = new ResponseView();
  readonly #slots: Journey[] = [];
  readonly #free: number[] = [];
  readonly #heap = new StepHeap();
  readonly #rowCursor: RowCursor | undefined;
  /** The step taken by the last {@linkcode popDue}. */
  dueMs = 0;
  stageIndex = 0;
  labelIndex = 0;
  /** Journeys started and under way now. */
  started = 0;
  live = 0;
  /** Later steps made (scheduled) and not withdrawn: requests beyond the schedule's arrivals. */
  made = 0;

  constructor(options: JourneyRunnerOptions) {
    this.#o = options;
    const labels = options.requests.length;
    this.#journeyOf = new Int32Array(labels).fill(-1);
    this.#rules = new Array(labels);
    options.journeys.forEach((j, journey) => {
      const slots = j.steps.flatMap((s) => s.captures.map((c) => c.name));
      j.steps.forEach((s, k) => {
        const label = options.firstStepLabel[journey] + k;
        this.#journeyOf[label] = journey;
        this.#rules[label] = {
          expect: s.expect,
          captures: s.captures,
          captureSlots: s.captures.map((c) => slots.indexOf(c.name)),
          ...(options.decoders?.[label] ? { decode: options.decoders[label] } : {}),
        };
      });
    });
    this.#rowCursor = options.renderer && options.renderer.sources > 0
      ? options.renderer.rowCursor()
      : undefined;
  }

  /** True when `labelIndex` is a journey's step (from the schedule: its first step). */
  isStep(labelIndex: number): boolean {
    return this.#journeyOf[labelIndex] >= 0;
  }

  /** Steps made due later and not yet taken. */
  get pending(): number {
    return this.#heap.length;
  }

  /** When the next pending step is due (ms from the run's start; Infinity when none). */
  get nextDueMs(): number {
    return this.#heap.topDueMs;
  }

  /**
   * Starts journey `n` (taken from the schedule, in order) whose first step has label
   * `labelIndex`; returns its slot. Its data rows are drawn now, once for all its steps.
   */
  start(n: number, fireMs: number, stageIndex: number, labelIndex: number): number {
    const slot = this.#free.pop() ?? this.#slots.push(this.#fresh()) - 1;
    const j = this.#slots[slot];
    j.n = n;
    j.journey = this.#journeyOf[labelIndex];
    j.step = 0;
    j.label = labelIndex;
    j.stageIndex = stageIndex;
    j.fireMs = fireMs;
    j.dueMs = fireMs;
    j.thinkMs = 0;
    j.captured.length = 0;
    j.failed = undefined;
    j.request = undefined;
    const rows = this.#rowCursor;
    if (rows !== undefined) {
      rows.at(n);
      for (let s = 0; s < j.rows.length; s++) j.rows[s] = rows.rowOf(s);
    }
    this.started++;
    this.live++;
    return slot;
  }

  /** Takes the earliest pending step (due): its slot, with `dueMs`, `stageIndex`, `labelIndex`. */
  popDue(): number {
    const slot = this.#heap.pop();
    const j = this.#slots[slot];
    this.dueMs = j.dueMs;
    this.stageIndex = j.stageIndex;
    this.labelIndex = j.label;
    return slot;
  }

  /** The schedule's index n that started the journey in `slot` (its steps' trace ids). */
  nOf(slot: number): number {
    return this.#slots[slot].n;
  }

  /** The current step of the journey in `slot`, 0 for its first. */
  stepOf(slot: number): number {
    return this.#slots[slot].step;
  }

  /** True when the current step of `slot` is a later step (not its journey's first). */
  isLaterStep(slot: number): boolean {
    return this.#slots[slot].step > 0;
  }

  /** The request to send for the current step of `slot` (undefined: the label's fixed one). */
  take(slot: number): PreparedRequest | undefined {
    const j = this.#slots[slot];
    if (j.step === 0) return this.#o.source?.take(j.n, j.label);
    return j.request;
  }

  /** The current step's request of `slot` completed; `failed`: a write may still hold it. */
  release(slot: number, request: PreparedRequest, failed: boolean): void {
    const j = this.#slots[slot];
    if (j.step === 0) this.#o.source?.release(request, failed);
    else if (failed && request === j.request) {
      // Its buffer may still be in a write: the journey's next render takes a new one.
      j.writer = undefined;
      j.request = undefined;
    }
  }

  /**
   * The error of the current step of `slot` given its response (`outcome.error`, an unexpected
   * status, a failed check, a missing capture), or undefined: captures are taken here.
   */
  judge(slot: number, outcome: ResponseOutcome): ErrorKind | undefined {
    const j = this.#slots[slot];
    j.failed = judgeStep(this.#rules[j.label], outcome, j.captured, this.#view);
    return j.failed;
  }

  /**
   * The current step of `slot` completed at `completedMs` (from the run's start) with `error`
   * (as recorded): the next step is made due, or the journey ends. `stopping`: the run stops, so
   * no step is made.
   */
  completed(slot: number, completedMs: number, error: ErrorKind | undefined, stopping: boolean) {
    const j = this.#slots[slot];
    const steps = this.#o.journeys[j.journey].steps;
    const failed = error !== undefined || j.failed !== undefined;
    if (failed || stopping || j.step === steps.length - 1) {
      this.#end(
        slot,
        failed ? "failed" : stopping && j.step < steps.length - 1 ? "stopped" : "completed",
        completedMs,
        j.step + 1,
      );
      return;
    }
    const k = j.step + 1;
    const dueMs = nextStepDueMs(completedMs, this.#o.seed, j.n, k, steps[k].think);
    j.thinkMs += dueMs - completedMs;
    j.step = k;
    j.label++;
    j.dueMs = dueMs;
    this.#render(j);
    this.#o.sink.scheduled(dueMs, j.stageIndex, j.label);
    this.made++;
    this.#heap.push(dueMs, slot);
  }

  /**
   * The run stopped: every pending step is withdrawn and, with the steps after it, counted
   * skipped; every journey still under way (its step queued or in flight, abandoned) has its
   * later steps counted skipped.
   */
  stop(): void {
    while (this.#heap.length > 0) {
      const slot = this.#heap.pop();
      const j = this.#slots[slot];
      this.#o.sink.withdrawn(j.dueMs, j.stageIndex, j.label);
      this.made--;
      this.#end(slot, "stopped", j.dueMs, j.step);
    }
    for (let slot = 0; slot < this.#slots.length; slot++) {
      const j = this.#slots[slot];
      if (j.n >= 0) this.#end(slot, "stopped", j.dueMs, j.step + 1);
    }
  }

  /** Ends the journey in `slot`: steps from `skipFrom` on are counted skipped. */
  #end(slot: number, end: JourneyEnd, endMs: number, skipFrom: number): void {
    const j = this.#slots[slot];
    const { sink, journeys, firstStepLabel } = this.#o;
    const steps = journeys[j.journey].steps.length;
    for (let k = skipFrom; k < steps; k++) {
      sink.stepSkipped(j.stageIndex, firstStepLabel[j.journey] + k);
    }
    sink.journeyEnded(j.stageIndex, j.journey, end, endMs - j.fireMs - j.thinkMs, j.thinkMs);
    j.n = -1;
    j.request = undefined;
    this.live--;
    this.#free.push(slot);
  }

  /** Renders the current step of `j` when its label has a template (else its fixed request). */
  #render(j: Journey): void {
    const renderer = this.#o.renderer;
    if (renderer === undefined || !renderer.isTemplated(j.label)) {
      j.request = undefined;
      return;
    }
    const writer = j.writer ??= new ByteWriter(256);
    renderer.renderStep(j.n, j.label, writer, j.rows, j.captured);
    const fixed = this.#o.requests[j.label];
    const r = j.rendered ??= { ...fixed };
    r.labelIndex = j.label;
    r.bytes = writer.view();
    r.isHead = fixed.isHead;
    r.timeoutMs = fixed.timeoutMs;
    r.expect = fixed.expect;
    r.keepBodyBytes = fixed.keepBodyBytes ?? 0;
    r.traceAt = renderer.traceAt;
    j.request = r;
  }

  #fresh(): Journey {
    return {
      n: -1,
      journey: 0,
      step: 0,
      label: 0,
      stageIndex: 0,
      fireMs: 0,
      dueMs: 0,
      thinkMs: 0,
      captured: [],
      rows: new Int32Array(this.#o.renderer?.sources ?? 0),
      writer: undefined,
      request: undefined,
      rendered: undefined,
      failed: undefined,
    };
  }
}
