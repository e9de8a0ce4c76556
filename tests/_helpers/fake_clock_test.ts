import assert from "node:assert/strict";
import { FakeClock } from "./fake_clock.ts";

Deno.test("the clock stands still until advanced or set", () => {
  const clock = new FakeClock(10);
  assert.equal(clock.nowMs(), 10);
  assert.equal(clock.nowMs(), 10);
  clock.advance(2.5);
  assert.equal(clock.nowMs(), 12.5);
  clock.set(40);
  assert.equal(clock.nowMs(), 40);
  assert.equal(new FakeClock().nowMs(), 0);
});

Deno.test("the clock refuses to go backwards or to non-finite times", () => {
  const clock = new FakeClock(5);
  assert.throws(() => clock.set(4), RangeError);
  assert.throws(() => clock.advance(-1), RangeError);
  assert.throws(() => clock.advance(NaN), RangeError);
  assert.throws(() => clock.set(Infinity), RangeError);
  assert.throws(() => new FakeClock(NaN), RangeError);
  assert.equal(clock.nowMs(), 5);
  clock.set(5); // standing still is allowed
  clock.advance(0);
});

Deno.test("listeners hear every move until they unsubscribe", () => {
  const clock = new FakeClock();
  const heard: number[] = [];
  const unsubscribe = clock.onChange((nowMs) => heard.push(nowMs));
  clock.advance(1);
  clock.set(3);
  unsubscribe();
  clock.advance(1);
  assert.deepEqual(heard, [1, 3]);
});
