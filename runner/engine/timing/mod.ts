/**
 * Time the engine can trust: the precise waker (a timing worker sleeping in `Atomics.wait`), the
 * rate of sends it is paced by, and the platform-hiccup probe that measures the machine's own
 * pauses.
 *
 * @module
 */
export { createAtomicsWaker } from "./atomics_waker.ts";
export { hiccupMeterOn, startHiccupProbe } from "./hiccup_meter.ts";
export type { HiccupMeter, HiccupProbe } from "./hiccup_meter.ts";
export { setShortSlice, SHORT_SLICE_NS } from "./short_slice.ts";
export { SendPace } from "./send_pace.ts";
