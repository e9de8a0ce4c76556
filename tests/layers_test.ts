/**
 * Keeps the one-way flow true: a file imports only from its own layer or layers below it
 * (docs/ARCHITECTURE.md). The layers, bottom first, are listed in LAYERS. Imports that still run
 * the other way are listed, each by file pair, in KNOWN_BACKWARD: the list may only shrink (a new
 * backward import fails, and so does an entry that no longer exists, so a fix removes its entry).
 * Inside a layer the same holds for its rooms ({@linkcode roomOf}): no two import each other,
 * directly or around a circle, but for those in KNOWN_ROOM_CYCLES, a list that only shrinks too.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { sourceFiles } from "./_helpers/source_files.ts";

const ROOT = normalize(join(dirname(new URL(import.meta.url).pathname), ".."));

/** Bottom first; a path belongs to the longest prefix that matches it. */
const LAYERS = [
  "runner/model",
  "runner/hdr",
  "runner/protobuf",
  "runner/version.ts",
  "runner/plan",
  "runner/schedule",
  "runner/engine",
  "runner/service",
  "runner/session",
  "runner/recorder",
  "runner/run",
  "runner/result",
  "runner/history",
  "runner/gates",
  "reporters",
  "runner/api",
  "runner/search",
  "runner/ab",
  "runner/target",
  "runner/cli",
  "ci",
];

/** Backward imports that remain, by file pair: none today; a new one fails. */
const KNOWN_BACKWARD: string[] = [];

function layerOf(path: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((prefix, i) => {
    if ((path === prefix || path.startsWith(`${prefix}/`)) && prefix.length > bestLength) {
      best = i;
      bestLength = prefix.length;
    }
  });
  return best;
}

/** Every relative import and re-export of `file`, as repository paths. */
async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, file));
  const specifiers = [...text.matchAll(/^(?:import|export)\b[^"';]*?["'](\.{1,2}\/[^"']+)["']/gm)]
    .map((m) => m[1]);
  return specifiers.map((s) => relative(ROOT, normalize(join(ROOT, dirname(file), s))));
}

async function backwardImports(): Promise<string[]> {
  const files = (await Promise.all(["runner", "reporters", "ci"].map(sourceFiles))).flat();
  const backward: string[] = [];
  for (const file of files) {
    for (const target of await importsOf(file)) {
      if (layerOf(target) > layerOf(file)) backward.push(`${file} -> ${target}`);
    }
  }
  return backward.sort();
}

Deno.test("every file imports only from its layer or the layers below it", async () => {
  const backward = await backwardImports();
  const unexpected = backward.filter((b) => !KNOWN_BACKWARD.includes(b));
  assert.deepEqual(unexpected, [], "imports that run against the flow (see docs/ARCHITECTURE.md)");
  const fixed = KNOWN_BACKWARD.filter((k) => !backward.includes(k));
  assert.deepEqual(fixed, [], "fixed: remove these from KNOWN_BACKWARD");
});

Deno.test("the layer test sees a backward import when there is one", async () => {
  // The model layer imports nothing; gates import the model: the check must tell them apart.
  assert.ok(layerOf("runner/model/run_result.ts") < layerOf("runner/gates/judge_run.ts"));
  assert.deepEqual(await importsOf("runner/model/run_result.ts"), []);
  const judge = await importsOf("runner/gates/judge_run.ts");
  assert.ok(judge.includes("runner/model/mod.ts"), judge.join(", "));
  assert.equal(layerOf("runner/version.ts"), LAYERS.indexOf("runner/version.ts"));
  assert.ok(layerOf("runner/version.ts") > layerOf("runner/model/run_result.ts"));
  assert.equal(layerOf("elsewhere/x.ts"), -1);
});

/**
 * Layers without a front door yet, a list that only shrinks: `ci`, which nothing imports (its
 * entries are the Action's and the release's scripts), and `runner/cli`, which `cli.ts` enters
 * and whose folder holds its limit of files directly (its door waits for a room of its own).
 */
const KNOWN_WITHOUT_FRONT_DOOR: string[] = [];

/**
 * Layers whose `mod.ts` is their front door: code outside them imports only that (every layer that
 * is a folder, but those in {@linkcode KNOWN_WITHOUT_FRONT_DOOR}).
 */
const FRONT_DOOR_LAYERS = LAYERS.filter((l) =>
  !l.endsWith(".ts") && !KNOWN_WITHOUT_FRONT_DOOR.includes(l)
);

/**
 * Second doors, each for the importers it names: `runner/result/read/` is the reading of a judged
 * result, the one part of the result layer reporters may import (see REPORTER_SOURCES below).
 */
const SIDE_DOORS: Record<string, string[]> = {
  "runner/result/read/mod.ts": ["reporters/"],
  // The side Workers, which start before every run, load only what they run (not the engine's
  // HTTP and TLS code through its door).
  "runner/engine/contention/mod.ts": ["runner/run/contention_worker.ts"],
  "runner/engine/low_priority.ts": [
    "runner/run/contention_worker.ts",
    "runner/recorder/interval_encoder_worker.ts",
  ],
  "runner/hdr/histogram_config.ts": ["runner/engine/timing/hiccup_worker.ts"],
  // What the engine's thread reads of a plan, without the plan's YAML and CSV readers.
  "runner/plan/runtime/mod.ts": [
    "runner/engine/",
    "runner/recorder/",
    "runner/schedule/",
    "runner/run/run_engine.ts",
    "runner/run/engine_requests.ts",
  ],
  "runner/plan/grpc/grpc_support.ts": ["runner/run/run_engine.ts"],

  "runner/service/find_service.ts": ["runner/run/contention_worker.ts"],
  "runner/service/listening_sockets.ts": ["runner/run/contention_worker.ts"],
  "runner/service/process_group.ts": ["runner/run/contention_worker.ts"],
};

/**
 * Imports from outside a front-door layer into it, at any depth, that skip its `mod.ts` (or a side
 * door open to the importer).
 */
async function layerDoorViolations(
  files: string[],
  imports: (file: string) => Promise<string[]> = importsOf,
  layers: string[] = FRONT_DOOR_LAYERS,
): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    for (const target of await imports(file)) {
      const layer = LAYERS[layerOf(target)];
      if (!layers.includes(layer)) continue;
      if (layerOf(file) === layerOf(target)) {
        if (target === `${layer}/mod.ts`) found.push(`${file} -> ${target} (its own layer's door)`);
        continue;
      }
      if (target === `${layer}/mod.ts`) continue;
      if (SIDE_DOORS[target]?.some((prefix) => file.startsWith(prefix))) continue;
      found.push(`${file} -> ${target} (not through ${layer}/mod.ts)`);
    }
  }
  return found.sort();
}

Deno.test("code outside a layer imports it only through the layer's mod.ts", async () => {
  const files = [
    ...(await Promise.all(["runner", "reporters", "ci"].map(sourceFiles))).flat(),
    "cli.ts",
    "mod.ts",
  ];
  const withoutDoor = FRONT_DOOR_LAYERS.filter((l) => !files.includes(`${l}/mod.ts`));
  assert.deepEqual(withoutDoor, [], "layers without a mod.ts");
  const opened = KNOWN_WITHOUT_FRONT_DOOR.filter((l) => files.includes(`${l}/mod.ts`));
  assert.deepEqual(
    opened,
    [],
    "these have a mod.ts now: remove them from KNOWN_WITHOUT_FRONT_DOOR",
  );
  assert.deepEqual(await layerDoorViolations(files), []);
});

Deno.test("the layer door check sees an import past a layer's mod.ts, or into its own", async () => {
  const imports: Record<string, string[]> = {
    "runner/api/measure_plan.ts": [
      "runner/engine/dispatcher.ts",
      "runner/engine/http1/mod.ts",
      "runner/plan/mod.ts",
      "runner/api/judge.ts",
    ],
    "runner/engine/dispatcher.ts": ["runner/engine/http1/mod.ts", "runner/model/result.ts"],
    "runner/engine/http1/reader.ts": ["runner/engine/types.ts", "runner/engine/mod.ts"],
    "reporters/text/markdown.ts": ["runner/result/read/mod.ts", "runner/result/build_result.ts"],
    "ci/action/verdict.ts": ["runner/result/read/mod.ts", "runner/result/mod.ts"],
    "cli.ts": ["runner/cli/commands.ts", "runner/version.ts"],
  };
  const found = await layerDoorViolations(
    Object.keys(imports),
    (f) => Promise.resolve(imports[f] ?? []),
    ["runner/model", "runner/engine", "runner/plan", "runner/result", "runner/cli", "runner/api"],
  );
  assert.deepEqual(found, [
    "ci/action/verdict.ts -> runner/result/read/mod.ts (not through runner/result/mod.ts)",
    "cli.ts -> runner/cli/commands.ts (not through runner/cli/mod.ts)",
    "reporters/text/markdown.ts -> runner/result/build_result.ts (not through runner/result/mod.ts)",
    "runner/api/measure_plan.ts -> runner/engine/dispatcher.ts (not through runner/engine/mod.ts)",
    "runner/api/measure_plan.ts -> runner/engine/http1/mod.ts (not through runner/engine/mod.ts)",
    "runner/engine/dispatcher.ts -> runner/model/result.ts (not through runner/model/mod.ts)",
    "runner/engine/http1/reader.ts -> runner/engine/mod.ts (its own layer's door)",
  ]);
  assert.ok(FRONT_DOOR_LAYERS.includes("runner/engine"));
  assert.ok(!FRONT_DOOR_LAYERS.includes("runner/version.ts"));
});

/**
 * The rooms: sub-folders of a layer with a `mod.ts` naming their public surface, and the layers of
 * {@linkcode FRONT_DOOR_LAYERS}.
 */
function rooms(files: string[]): string[] {
  const folders = new Set(files.filter((f) => f.endsWith("/mod.ts")).map((f) => dirname(f)));
  return [...folders].filter((folder) =>
    !LAYERS.includes(folder) || FRONT_DOOR_LAYERS.includes(folder)
  ).sort();
}

/** Imports from outside a room into it that skip its `mod.ts`, and imports of `_private.ts` files. */
async function roomViolations(
  files: string[],
  imports: (file: string) => Promise<string[]> = importsOf,
): Promise<string[]> {
  const roomList = rooms(files);
  const found: string[] = [];
  for (const file of files) {
    for (const target of await imports(file)) {
      const folder = dirname(target);
      const base = target.slice(folder.length + 1);
      const inside = dirname(file) === folder || dirname(file).startsWith(`${folder}/`);
      if (base.startsWith("_") && !inside) found.push(`${file} -> ${target} (private)`);
      const sideDoor = SIDE_DOORS[target]?.some((prefix) => file.startsWith(prefix));
      if (roomList.includes(folder) && !inside && base !== "mod.ts" && !sideDoor) {
        found.push(`${file} -> ${target} (not through ${folder}/mod.ts)`);
      }
    }
  }
  return found.sort();
}

Deno.test("code outside a room imports it only through its mod.ts, never a _private file", async () => {
  const files = (await Promise.all(["runner", "reporters", "ci"].map(sourceFiles))).flat();
  assert.ok(rooms(files).includes("runner/gates/stats"));
  assert.ok(rooms(files).includes("runner/history"));
  assert.deepEqual(await roomViolations(files), []);
});

Deno.test("the room check sees an import past a room's mod.ts or into a private file", async () => {
  const files = [
    "runner/gates/stats/mod.ts",
    "runner/gates/stats/holm.ts",
    "runner/gates/stats/_sum.ts",
    "runner/gates/judge_run.ts",
    "runner/gates/regression/regression.ts",
    "runner/history/mod.ts",
    "runner/history/stage_match.ts",
    "runner/plan/mod.ts",
    "runner/plan/units.ts",
  ];
  const imports: Record<string, string[]> = {
    "runner/gates/stats/mod.ts": ["runner/gates/stats/holm.ts"],
    "runner/gates/stats/holm.ts": ["runner/gates/stats/_sum.ts"],
    "runner/gates/judge_run.ts": ["runner/gates/stats/holm.ts", "runner/gates/stats/mod.ts"],
    "runner/gates/regression/regression.ts": [
      "runner/gates/stats/_sum.ts",
      "runner/history/stage_match.ts",
      "runner/plan/units.ts",
    ],
    "runner/history/stage_match.ts": ["runner/plan/units.ts"],
  };
  assert.deepEqual(await roomViolations(files, (f) => Promise.resolve(imports[f] ?? [])), [
    "runner/gates/judge_run.ts -> runner/gates/stats/holm.ts (not through runner/gates/stats/mod.ts)",
    "runner/gates/regression/regression.ts -> runner/gates/stats/_sum.ts (not through runner/gates/stats/mod.ts)",
    "runner/gates/regression/regression.ts -> runner/gates/stats/_sum.ts (private)",
    "runner/gates/regression/regression.ts -> runner/history/stage_match.ts (not through runner/history/mod.ts)",
    "runner/gates/regression/regression.ts -> runner/plan/units.ts (not through runner/plan/mod.ts)",
    "runner/history/stage_match.ts -> runner/plan/units.ts (not through runner/plan/mod.ts)",
  ]);
});

/**
 * A file's room, for the circle check: the folder it is in when that folder lies below a layer's
 * folder (`runner/engine/http1`, `runner/engine/http2/hpack`, `reporters/browser`: each folder a
 * room of its own, its sub-folders rooms beside it); a file directly in a layer's folder
 * (`runner/engine/dispatcher.ts`, `runner/plan/types.ts`) is a room by itself, since a layer's
 * top holds both the words its rooms share and the files that compose them (its `mod.ts`).
 */
function roomOf(path: string): string {
  const folder = dirname(path);
  return LAYERS.includes(folder) || LAYERS.includes(path) || layerOf(path) < 0 ? path : folder;
}

/** A circle among rooms: its rooms, sorted and joined by ` <-> `, and the imports between them. */
interface RoomCycle {
  rooms: string;
  imports: string[];
}

/** Circles among rooms that remain, by their rooms: only shrinks (a new one fails, a gone one too). */
const KNOWN_ROOM_CYCLES: string[] = [];

/**
 * The circles among rooms: each strongly connected component of the graph of rooms (an edge
 * wherever a file of one room imports a file of another) that holds more than one room.
 */
async function roomCycles(
  files: string[],
  imports: (file: string) => Promise<string[]> = importsOf,
): Promise<RoomCycle[]> {
  const pairs = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    for (const target of await imports(file)) {
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      const out = pairs.get(from) ?? new Map<string, string[]>();
      pairs.set(from, out.set(to, [...out.get(to) ?? [], `${file} -> ${target}`]));
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    for (const next of pairs.get(room)?.keys() ?? []) {
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(room, Math.min(low.get(room)!, low.get(next)!));
    }
    if (low.get(room) !== index.get(room)) return;
    const component = stack.splice(stack.indexOf(room));
    if (component.length > 1) components.push(component.sort());
  };
  for (const room of [...pairs.keys()].sort()) if (!index.has(room)) visit(room);
  return components.map((rooms) => ({
    rooms: rooms.join(" <-> "),
    imports: rooms.flatMap((from) =>
      [...pairs.get(from) ?? []].filter(([to]) => rooms.includes(to)).flatMap(([, p]) => p)
    ).filter((p, i, all) => all.indexOf(p) === i).sort(),
  })).sort((a, b) => a.rooms.localeCompare(b.rooms));
}

Deno.test("rooms import one another without a circle", async () => {
  const files = (await Promise.all(["runner", "reporters", "ci"].map(sourceFiles))).flat();
  const cycles = await roomCycles(files);
  const unexpected = cycles.filter((c) => !KNOWN_ROOM_CYCLES.includes(c.rooms));
  assert.deepEqual(unexpected, [], "rooms that import in a circle (see docs/ARCHITECTURE.md)");
  const fixed = KNOWN_ROOM_CYCLES.filter((k) => !cycles.some((c) => c.rooms === k));
  assert.deepEqual(fixed, [], "fixed: remove these from KNOWN_ROOM_CYCLES");
});

Deno.test("the circle check sees rooms that import in a circle, and only those", async () => {
  const imports: Record<string, string[]> = {
    // A circle through a layer's top file: inflight_request.ts -> http1/ -> inflight_request.ts.
    "runner/engine/inflight_request.ts": ["runner/engine/http1/mod.ts"],
    "runner/engine/http1/mod.ts": ["runner/engine/http1/reader.ts"],
    "runner/engine/http1/reader.ts": [
      "runner/engine/inflight_request.ts",
      "runner/engine/types.ts",
    ],
    // No circle: the top's composer and its shared words are rooms apart.
    "runner/engine/dispatcher.ts": ["runner/engine/http1/mod.ts", "runner/engine/types.ts"],
    // A circle of three rooms, and files of one room that import each other (no circle of rooms).
    "reporters/html/html.ts": ["reporters/browser/mod.ts", "reporters/html/page.ts"],
    "reporters/html/page.ts": ["reporters/html/html.ts"],
    "reporters/browser/mod.ts": ["reporters/page/mod.ts"],
    "reporters/page/mod.ts": ["reporters/html/page.ts"],
    "reporters/search/search_html.ts": ["reporters/browser/mod.ts"],
  };
  const cycles = await roomCycles(Object.keys(imports), (f) => Promise.resolve(imports[f] ?? []));
  assert.deepEqual(cycles, [
    {
      rooms: "reporters/browser <-> reporters/html <-> reporters/page",
      imports: [
        "reporters/browser/mod.ts -> reporters/page/mod.ts",
        "reporters/html/html.ts -> reporters/browser/mod.ts",
        "reporters/page/mod.ts -> reporters/html/page.ts",
      ],
    },
    {
      rooms: "runner/engine/http1 <-> runner/engine/inflight_request.ts",
      imports: [
        "runner/engine/http1/reader.ts -> runner/engine/inflight_request.ts",
        "runner/engine/inflight_request.ts -> runner/engine/http1/mod.ts",
      ],
    },
  ]);
  delete imports["runner/engine/http1/reader.ts"];
  imports["reporters/page/mod.ts"] = [];
  assert.deepEqual(
    await roomCycles(Object.keys(imports), (f) => Promise.resolve(imports[f] ?? [])),
    [],
  );
  assert.equal(roomOf("runner/engine/types.ts"), "runner/engine/types.ts");
  assert.equal(roomOf("runner/engine/http2/hpack/huffman.ts"), "runner/engine/http2/hpack");
  assert.equal(roomOf("runner/version.ts"), "runner/version.ts");
});

/**
 * What a reporter may import from runner/: the result's vocabulary (model, hdr), protobuf (the
 * exporters' wire format), tailgate's version (the exporters' instrumentation scope), the plan's
 * own words (units, printable text, the SLO grammar), the reading of a judged result (result/read) and
 * the one way files are written (in the model). Never the layers that produce a result (engine,
 * recorder, gates).
 */
const REPORTER_SOURCES = [
  "runner/model",
  "runner/hdr",
  "runner/protobuf",
  "runner/version.ts",
  "runner/plan",
  "runner/result/read",
];

/** Imports of reporters/ files that reach into runner/ beyond {@linkcode REPORTER_SOURCES}. */
async function reporterViolations(
  files: string[],
  imports: (file: string) => Promise<string[]> = importsOf,
): Promise<string[]> {
  const allowed = (target: string) =>
    !target.startsWith("runner/") ||
    REPORTER_SOURCES.some((s) => target === s || target.startsWith(`${s}/`));
  const found: string[] = [];
  for (const file of files.filter((f) => f.startsWith("reporters/"))) {
    for (const target of await imports(file)) {
      if (!allowed(target)) found.push(`${file} -> ${target}`);
    }
  }
  return found.sort();
}

Deno.test("reporters read a result only through the model, hdr, plan words and result/read", async () => {
  const files = await sourceFiles("reporters");
  assert.deepEqual(await reporterViolations(files), []);
});

Deno.test("the reporter check sees a reporter reaching into the gates, recorder or engine", async () => {
  const imports: Record<string, string[]> = {
    "reporters/html.ts": [
      "runner/result/read/mod.ts",
      "runner/model/run_result.ts",
      "reporters/html_page.ts",
      "runner/gates/run_verdict.ts",
    ],
    "reporters/markdown.ts": ["runner/recorder/request_counts.ts", "runner/plan/units.ts"],
    "reporters/terminal.ts": ["runner/engine/mod.ts", "runner/result/build_result.ts"],
    "runner/gates/judge_run.ts": ["runner/engine/mod.ts"],
  };
  const files = Object.keys(imports);
  assert.deepEqual(await reporterViolations(files, (f) => Promise.resolve(imports[f] ?? [])), [
    "reporters/html.ts -> runner/gates/run_verdict.ts",
    "reporters/markdown.ts -> runner/recorder/request_counts.ts",
    "reporters/terminal.ts -> runner/engine/mod.ts",
    "reporters/terminal.ts -> runner/result/build_result.ts",
  ]);
});

/** At most this many files directly in one source folder; past it, the folder gets rooms. */
const MAX_FILES_PER_FOLDER = 16;

Deno.test("no source folder holds more than ~15 files directly", async () => {
  const files = (await Promise.all(["runner", "reporters", "ci", "bench"].map(sourceFiles))).flat();
  const counts = new Map<string, number>();
  for (const f of files) counts.set(dirname(f), (counts.get(dirname(f)) ?? 0) + 1);
  const crowded = [...counts].filter(([, n]) => n > MAX_FILES_PER_FOLDER).map(([d, n]) =>
    `${d}: ${n}`
  );
  assert.deepEqual(
    crowded,
    [],
    "give these folders rooms (sub-folders with a mod.ts)",
  );
});

/** Files of `files` under runner/gates/ whose text reaches the runtime (`Deno.`): files, env, time. */
async function gatesWithIo(
  files: string[],
  read: (file: string) => Promise<string> = (f) => Deno.readTextFile(join(ROOT, f)),
): Promise<string[]> {
  const found: string[] = [];
  for (const file of files.filter((f) => f.startsWith("runner/gates/"))) {
    if ((await read(file)).includes("Deno.")) found.push(file);
  }
  return found.sort();
}

Deno.test("the gates touch no file: no `Deno.` under runner/gates/", async () => {
  assert.deepEqual(await gatesWithIo(await sourceFiles("runner/gates")), []);
});

Deno.test("the gates' I/O check sees a gate that reads a file", async () => {
  const texts: Record<string, string> = {
    "runner/gates/judge_run.ts": "await Deno.readTextFile(path);",
    "runner/gates/run_verdict.ts": "export const x = 1;",
    "runner/history/history_store.ts": "await Deno.readTextFile(path);",
  };
  const found = await gatesWithIo(Object.keys(texts), (f) => Promise.resolve(texts[f]));
  assert.deepEqual(found, ["runner/gates/judge_run.ts"]);
});
