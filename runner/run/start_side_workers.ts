/**
 * The two Workers a real run keeps beside its engine thread, the interval encoder and the
 * platform-hiccup probe: started together by one thread, used by the engine's. A Worker started
 * from a Worker (the engine runs in one) takes about half a second to answer under Deno 2.9 even
 * when it loads nothing, most of it idle (docs/engine.md, "Where the CPU goes"), so the main
 * thread starts them, at the same time as the engine's own Worker, and hands the engine only
 * their links: the encoder's port and the probe's shared buffer.
 *
 * @module
 */
import type { IntervalStore } from "../recorder/mod.ts";
import {
  type IntervalEncoder,
  startIntervalEncoder,
  WorkerIntervalStore,
} from "../recorder/mod.ts";
import {
  type HiccupMeter,
  hiccupMeterOn,
  type HiccupProbe,
  startHiccupProbe,
} from "../engine/mod.ts";

/** What the engine's thread needs of the side Workers; post it with `encoderPort` transferred. */
export interface SideLinks {
  encoderPort: MessagePort;
  hiccupSab: SharedArrayBuffer;
}

/** The side Workers, as the thread that started them holds them. */
export interface SideWorkers {
  readonly links: SideLinks;
  /** Resolves once both run; if either fails to start, both are ended and it rejects. */
  readonly ready: Promise<void>;
  /** Ends both threads (once the engine is done with them); resolves once the encoder's is gone. */
  close(): Promise<void>;
}

/** How each side Worker is started (the real ones unless a test says otherwise). */
export interface SideWorkerStarters {
  encoder: () => IntervalEncoder;
  probe: () => HiccupProbe;
}

const REAL: SideWorkerStarters = { encoder: startIntervalEncoder, probe: startHiccupProbe };

/**
 * Starts the encoder and the hiccup probe at once; the links are usable at once (what is posted
 * to the encoder waits for it), `ready` tells when both run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { attachSideWorkers, startSideWorkers } from "./start_side_workers.ts";
 * const side = startSideWorkers();
 * await side.ready;
 * const { store, hiccups } = attachSideWorkers(side.links);
 * assert.deepEqual(store.all(), []);
 * assert.equal((await hiccups.stop()).count, 0); // nothing recorded before recordFrom()
 * store.close();
 * await side.close();
 * ```
 */
export function startSideWorkers(starters: SideWorkerStarters = REAL): SideWorkers {
  const encoder = starters.encoder();
  const probe = starters.probe();
  const close = () => {
    probe.close();
    return encoder.close();
  };
  const ready = Promise.all([encoder.ready, probe.ready]).then(() => {}, async (error) => {
    await close();
    throw error;
  });
  return { links: { encoderPort: encoder.port, hiccupSab: probe.sab }, ready, close };
}

/** The store and the meter the engine uses, over the links of {@linkcode startSideWorkers}. */
export function attachSideWorkers(
  links: SideLinks,
): { store: IntervalStore; hiccups: HiccupMeter } {
  return {
    store: new WorkerIntervalStore(links.encoderPort),
    hiccups: hiccupMeterOn(links.hiccupSab),
  };
}
