import assert from "node:assert/strict";
import { setShortSlice, SHORT_SLICE_NS } from "../../../../runner/engine/timing/mod.ts";

/** The calling thread's sched_attr as the kernel reports it (sched_getattr), or undefined. */
function schedAttr(): { policy: number; runtimeNs: bigint } | undefined {
  const libc = Deno.dlopen("libc.so.6", {
    syscall: { parameters: ["i64", "i32", "buffer", "u32", "u32"], result: "i64" },
  });
  try {
    const bytes = new Uint8Array(56);
    const SYS_SCHED_GETATTR = 315n;
    if (libc.symbols.syscall(SYS_SCHED_GETATTR, 0, bytes, 56, 0) !== 0n) return undefined;
    const view = new DataView(bytes.buffer);
    return { policy: view.getUint32(4, true), runtimeNs: view.getBigUint64(24, true) };
  } finally {
    libc.close();
  }
}

/** Whether this kernel takes custom slices (Linux 6.12 and later). */
function kernelTakesSlices(): boolean {
  const [major, minor] = Deno.osRelease().split(/[.-]/).map(Number);
  return major > 6 || (major === 6 && minor >= 12);
}

Deno.test(
  {
    name: "the short slice is the calling thread's, as the kernel reports it, where it takes one",
    ignore: Deno.build.os !== "linux" || Deno.build.arch !== "x86_64",
  },
  () => {
    const set = setShortSlice();
    assert.equal(set, kernelTakesSlices(), `kernel ${Deno.osRelease()}`);
    if (!set) return;
    const attr = schedAttr();
    assert.ok(attr);
    assert.equal(attr.policy, 0, "still SCHED_OTHER");
    assert.equal(attr.runtimeNs, BigInt(SHORT_SLICE_NS));
  },
);
