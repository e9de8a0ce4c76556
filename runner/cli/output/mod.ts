/**
 * Where a command's files go: the output folder checked before any work, the rule that results and
 * histories never share a folder, and the capacity search's files.
 *
 * @module
 */
export { checkOutDir, claimOutDir, outPlaceProblem, ownOutDirProblem } from "./out_dir.ts";
export { outOverlap } from "./out_overlap.ts";
export { writeSearchFiles } from "./search_files.ts";
export { writeHistoryFiles } from "./history_files.ts";
