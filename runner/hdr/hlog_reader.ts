/**
 * Reads HdrHistogram interval logs (.hlog, format versions 1.2 and 1.3): tailgate's own
 * (`renderHlog`) and those of other writers (Java `HistogramLogWriter`, Rust `hdrhistogram`,
 * jHiccup), as Java's `HistogramLogReader` does (docs/reporters.md).
 *
 * Lines starting with `#` are comments, except `#[StartTime: <seconds since epoch>` and
 * `#[BaseTime: <seconds since epoch>`; the line starting with `"StartTimestamp"` is the legend;
 * blank lines are skipped; every other line must be an interval,
 * `[Tag=<tag>,]<start s>,<length s>,<max>,<base64 V2 histogram>`. Histograms are taken to hold
 * nanoseconds (the .hlog convention) and are decoded into tailgate's microsecond histograms; the
 * compressed V2 encoding (what Java reads) and the uncompressed one (Rust's `V2Serializer`) are
 * read, V1 and DoubleHistogram encodings are refused.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { deflateSync } from "node:zlib";
import type { Histogram } from "./_hdr.ts";
import { decodeHistogram, HdrCodecError } from "./hdr_codec.ts";

/** Timestamps more than this before the StartTime are taken as relative (Java's heuristic). */
const ONE_YEAR_SEC = 365 * 24 * 3600;
/** V2 cookies without their word-size nibble: uncompressed payload, and its compressed wrapper. */
const V2_PAYLOAD_COOKIE = 0x1c849303;
const V2_COMPRESSED_COOKIE = 0x1c849304;

/**
 * One interval line of a log.
 */
export interface HlogEntry {
  /** The `Tag=` of the line; absent on untagged lines (tailgate: see `parseHlogTag`). */
  tag?: string;
  /** StartTimestamp as written: relative to the BaseTime when the log has one. */
  startTimestampSec: number;
  /**
   * Seconds since the epoch, as Java's `HistogramLogReader` works them out: StartTimestamp plus
   * the BaseTime; without a BaseTime, StartTimestamp itself, or plus the StartTime when it lies
   * more than a year before the StartTime.
   */
  absoluteStartSec: number;
  /** Interval_Length as written: the length of the interval, in seconds. */
  intervalLengthSec: number;
  /**
   * Interval_Max as written: milliseconds in logs of nanosecond values written with Java's default
   * ratio (tailgate, Java); a Rust writer's `#[MaxValueDivisor: ...]` comment may say otherwise.
   */
  intervalMaxMs: number;
  /**
   * The histogram in MICROSECONDS (tailgate's configuration): each nanosecond bucket's count is
   * recorded at the bucket's highest value divided by 1000, rounded down. Decoding tailgate's own
   * logs gives back the result's histograms exactly.
   */
  histogram: Histogram;
  /** 1-based line number in the text. */
  line: number;
}

/**
 * A parsed log. `startTimeSec` and `baseTimeSec` are the first StartTime and BaseTime comments
 * (seconds since the epoch), absent when the log has none; a later one applies from its line on.
 */
export interface HlogLog {
  /** The first `#[StartTime:` comment, seconds since the epoch. */
  startTimeSec?: number;
  /** The first `#[BaseTime:` comment, seconds since the epoch. */
  baseTimeSec?: number;
  /** The interval lines, in the order of the text. */
  entries: HlogEntry[];
}

/**
 * A malformed log: the message starts with `line N:`.
 */
export class HlogParseError extends Error {
  /** The error's name, `HlogParseError`. */
  override name = "HlogParseError";
  /** An error at the 1-based `line` of the log; the message is prefixed with `line N:`. */
  constructor(readonly line: number, message: string, options?: ErrorOptions) {
    super(`line ${line}: ${message}`, options);
  }
}

/**
 * Parses an interval log. Pure: throws {@linkcode HlogParseError} on the first malformed line.
 */
export function parseHlog(text: string): HlogLog {
  const log: HlogLog = { entries: [] };
  let startTimeSec: number | undefined;
  let baseTimeSec: number | undefined;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const time = /^#\[(StartTime|BaseTime): +([^\s,\]]+)/.exec(content);
    const timeSec = time === null ? NaN : decimal(time[2]);
    if (time !== null && Number.isFinite(timeSec)) {
      if (time[1] === "StartTime") {
        startTimeSec = timeSec;
        log.startTimeSec ??= timeSec;
      } else {
        baseTimeSec = timeSec;
        log.baseTimeSec ??= timeSec;
      }
      return;
    }
    if (content.startsWith("#") || content.startsWith('"StartTimestamp"')) return;
    if (content.trim() === "") return;
    const entry = parseInterval(content, line);
    // Java's HistogramLogReader: without a StartTime the first timestamp is the start; without a
    // BaseTime, timestamps are relative when over a year before the start, and stay so.
    startTimeSec ??= entry.startTimestampSec;
    baseTimeSec ??= entry.startTimestampSec < startTimeSec - ONE_YEAR_SEC ? startTimeSec : 0;
    log.entries.push({ ...entry, absoluteStartSec: entry.startTimestampSec + baseTimeSec });
  });
  return log;
}

function parseInterval(text: string, line: number): Omit<HlogEntry, "absoluteStartSec"> {
  const tagged = /^Tag=([^,]*),(.*)$/s.exec(text);
  const fields = (tagged === null ? text : tagged[2]).split(",").map((f) => f.trim());
  if (tagged !== null && /\s/.test(tagged[1])) {
    throw new HlogParseError(line, `tag "${tagged[1]}" contains whitespace`);
  }
  if (fields.length !== 4) {
    throw new HlogParseError(
      line,
      "expected an interval [Tag=<tag>,]<StartTimestamp>,<Interval_Length>,<Interval_Max>," +
        `<Interval_Compressed_Histogram>, found ${fields.length} field(s)`,
    );
  }
  const [start, length, max] = ["StartTimestamp", "Interval_Length", "Interval_Max"].map(
    (name, i) => {
      const value = decimal(fields[i]);
      if (!Number.isFinite(value) || value < 0) {
        throw new HlogParseError(line, `${name} "${fields[i]}" is not a non-negative number`);
      }
      return value;
    },
  );
  let histogram: Histogram;
  try {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(fields[3])) {
      throw new HdrCodecError("Interval_Compressed_Histogram is not base64");
    }
    histogram = decodeNanoseconds(fields[3]);
  } catch (cause) {
    if (!(cause instanceof HdrCodecError)) throw cause;
    throw new HlogParseError(line, `bad histogram: ${cause.message}`, { cause });
  }
  return {
    ...(tagged === null ? {} : { tag: tagged[1] }),
    startTimestampSec: start,
    intervalLengthSec: length,
    intervalMaxMs: max,
    histogram,
    line,
  };
}

/**
 * Decodes a logged nanosecond histogram into microseconds. Besides the compressed V2 encoding that
 * Java reads, takes the uncompressed one the Rust crate's `V2Serializer` writes into logs.
 */
function decodeNanoseconds(base64: string): Histogram {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.length >= 4 && (bytes.readUInt32BE(0) & ~0xf0) === V2_PAYLOAD_COOKIE) {
    const compressed = deflateSync(bytes);
    const head = Buffer.alloc(8);
    head.writeUInt32BE((V2_COMPRESSED_COOKIE | 0x10) >>> 0, 0);
    head.writeUInt32BE(compressed.length, 4);
    base64 = Buffer.concat([head, compressed]).toString("base64");
  }
  return decodeHistogram(base64, { unitScale: 1000 });
}

/** A decimal number (`12`, `0.127`, `1.5e3`); NaN for anything else. */
function decimal(text: string): number {
  return /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}
