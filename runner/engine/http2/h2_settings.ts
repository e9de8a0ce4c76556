/**
 * A server's SETTINGS frame read (RFC 9113 §6.5): the parameters the client acts on, or the
 * connection error a value calls for. Unknown parameters are ignored (§6.5.2).
 *
 * @module
 */
import {
  DEFAULT_MAX_FRAME_BYTES,
  H2_CODE,
  MAX_WINDOW_BYTES,
  readUint32,
  SETTING,
} from "./h2_frame.ts";

/** What one SETTINGS frame set (a parameter set twice: its last value). */
export interface PeerSettings {
  maxConcurrentStreams?: number;
  initialWindowBytes?: number;
  maxFrameBytes?: number;
}

/** A SETTINGS frame that is a connection error: its code and what was wrong. */
export interface SettingsProblem {
  code: number;
  reason: string;
}

/**
 * Reads a SETTINGS frame's payload (not an ACK's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSettings } from "./h2_settings.ts";
 * assert.deepEqual(readSettings(Uint8Array.of(0, 3, 0, 0, 0, 100)), { maxConcurrentStreams: 100 });
 * assert.equal("code" in readSettings(Uint8Array.of(0, 5, 0, 0, 0, 1)), true); // frame size 1
 * ```
 */
export function readSettings(payload: Uint8Array): PeerSettings | SettingsProblem {
  if (payload.length % 6 !== 0) return { code: H2_CODE.frameSizeError, reason: "SETTINGS" };
  const settings: PeerSettings = {};
  for (let at = 0; at < payload.length; at += 6) {
    const id = (payload[at] << 8) | payload[at + 1];
    const value = readUint32(payload, at + 2);
    if (id === SETTING.maxConcurrentStreams) settings.maxConcurrentStreams = value;
    else if (id === SETTING.initialWindowSize) {
      if (value > MAX_WINDOW_BYTES) {
        return { code: H2_CODE.flowControlError, reason: "SETTINGS_INITIAL_WINDOW_SIZE" };
      }
      settings.initialWindowBytes = value;
    } else if (id === SETTING.maxFrameSize) {
      if (value < DEFAULT_MAX_FRAME_BYTES || value > 0xff_ffff) {
        return { code: H2_CODE.protocolError, reason: "SETTINGS_MAX_FRAME_SIZE" };
      }
      settings.maxFrameBytes = value;
    }
  }
  return settings;
}
