/**
 * JUnit XML for CI test views: the run's report (`renderJunit`) and the document builder the A/B
 * report shares (one test case per gate, times apportioned, text made safe for XML 1.0).
 *
 * @module
 */
export { renderJunit } from "./junit.ts";
export {
  DEFAULT_JUNIT_INCONCLUSIVE,
  type InconclusiveElement,
  inconclusiveElement,
  JUNIT_INCONCLUSIVE_VALUES,
  type JunitInconclusive,
  readJunitInconclusive,
} from "./junit_inconclusive.ts";
export { junitDocument, type JunitSuite, type TestCase } from "./junit_document.ts";
export { apportionMs } from "./apportion_ms.ts";
export { xmlAttr, xmlText } from "./xml_escape.ts";
