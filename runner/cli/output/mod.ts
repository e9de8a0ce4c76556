/**
 * Where `tailgate history`'s files go (the output folder's checks are runner/api's: out_dir.ts).
 *
 * @module
 */
export { writeHistoryFiles } from "./history_files.ts";
