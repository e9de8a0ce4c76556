/**
 * The SLO gates: each SLO of a plan judged with the one decision rule (whole-run, windowed and
 * time-domain), and the implicit error gate.
 *
 * @module
 */
export { evaluateSlos } from "./evaluate_slos.ts";
export { implicitErrorGate, implicitErrorVerdict } from "./implicit_error_gate.ts";
