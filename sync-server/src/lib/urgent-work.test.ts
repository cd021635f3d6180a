import { expect, test } from 'vitest';
import { gate } from '../test/gates.ts';
import { backgroundSlots, RELEASED_PER_TURN, UrgentWork } from './urgent-work.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('urgent work is running from the first start to the last end, and says so once each way', async () => {
  const urgent = new UrgentWork();
  const changes: boolean[] = [];
  urgent.onChange((running) => changes.push(running));
  const [first, second] = [gate(), gate()];
  const a = urgent.run(() => first.opened);
  const b = urgent.run(() => second.opened);
  expect(urgent.running).toBe(true);
  first.open();
  await a;
  expect(urgent.running).toBe(true);
  second.open();
  await b;
  expect(urgent.running).toBe(false);
  expect(changes).toEqual([true, false]);
  // A failure ends it too.
  await expect(urgent.run(() => Promise.reject(new Error('declined')))).rejects.toThrow('declined');
  expect(urgent.running).toBe(false);
  expect(changes).toEqual([true, false, true, false]);
});

test('background slots: all of them at once; nothing new starts while urgent work runs; in order after', async () => {
  const urgent = new UrgentWork();
  const slots = backgroundSlots(2, urgent);
  const held = Array.from({ length: 5 }, gate);
  let next = 0;
  const started: number[] = [];
  const work = () => {
    const index = next++;
    return slots(async () => {
      started.push(index);
      await held[index]!.opened;
    });
  };
  const running = [work(), work()];
  await settle();
  expect(started).toEqual([0, 1]);

  const checkout = gate();
  const urgentRun = urgent.run(() => checkout.opened);
  running.push(work(), work(), work());
  // A slot frees while urgent work runs: the work already running went on, nothing new starts.
  held[0]!.open();
  held[1]!.open();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(started).toEqual([0, 1]);

  // Urgent work ends: the waiting work starts in order, two at once.
  checkout.open();
  await urgentRun;
  await settle();
  expect(started).toEqual([0, 1, 2, 3]);
  for (const { open } of held) open();
  await Promise.all(running);
  expect(started).toEqual([0, 1, 2, 3, 4]);
});

test('background work waits for urgent work at most maxWaitMs: a stream of checkouts never stops it', async () => {
  const urgent = new UrgentWork();
  const slots = backgroundSlots(1, urgent, 100);
  const checkout = gate();
  const urgentRun = urgent.run(() => checkout.opened);
  const started = performance.now();
  await expect(slots(async () => 'pushed')).resolves.toBe('pushed');
  const waited = performance.now() - started;
  expect(waited).toBeGreaterThanOrEqual(95);
  expect(waited).toBeLessThan(1_000);
  // With no urgent work, at once.
  checkout.open();
  await urgentRun;
  const again = performance.now();
  await slots(async () => undefined);
  expect(performance.now() - again).toBeLessThan(50);
});

test("another instance's urgent work counts until its end, or until it is forgotten", async () => {
  const urgent = new UrgentWork();
  const [changes, changesHere] = [[] as boolean[], [] as boolean[]];
  urgent.onChange((running) => changes.push(running));
  urgent.onChangeHere((running) => changesHere.push(running));

  urgent.elsewhere('b', true);
  expect([urgent.running, urgent.runningHere]).toEqual([true, false]);
  const waiting = urgent.quiet(5_000);
  urgent.elsewhere('b', false);
  await waiting;
  expect(changes).toEqual([true, false]);
  // What this instance tells the others is its own work only.
  expect(changesHere).toEqual([]);

  // Work here and elsewhere overlap: running until both end.
  const checkout = gate();
  const here = urgent.run(() => checkout.opened);
  urgent.elsewhere('b', true);
  checkout.open();
  await here;
  expect([urgent.running, urgent.runningHere]).toEqual([true, false]);
  urgent.elsewhere('b', false);
  expect(urgent.running).toBe(false);
  expect(changesHere).toEqual([true, false]);

  // A start whose end never comes is forgotten after `forMs`.
  urgent.elsewhere('c', true, 50);
  expect(urgent.running).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(urgent.running).toBe(false);
});

/** 100 callers of `quiet` waiting for urgent work that has just ended; `released` in their order. */
async function hundredWaitersOfEndedWork(urgent: UrgentWork) {
  const checkout = gate();
  const running = urgent.run(() => checkout.opened);
  const released: number[] = [];
  const waiters = Array.from({ length: 100 }, (_, i) =>
    urgent.quiet(10_000).then(() => released.push(i)),
  );
  checkout.open();
  await running;
  return { released, waiters };
}

test('waiters go a few per event-loop turn once urgent work ends, and stop when it starts again', async () => {
  const urgent = new UrgentWork();
  const { released, waiters } = await hundredWaitersOfEndedWork(urgent);
  // The first turn lets the first RELEASED_PER_TURN go, in order; the rest wait for later turns.
  await settle();
  expect(released).toEqual(Array.from({ length: RELEASED_PER_TURN }, (_, i) => i));

  // Urgent work starts again before they are all gone: no more go until it ends.
  const second = gate();
  const secondRun = urgent.run(() => second.opened);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(released.length).toBe(RELEASED_PER_TURN);

  second.open();
  await secondRun;
  await Promise.all(waiters);
  expect(released).toEqual(Array.from({ length: 100 }, (_, i) => i));
});

test('while waiters are still being released, a newcomer goes at once', async () => {
  const urgent = new UrgentWork();
  const { released, waiters } = await hundredWaitersOfEndedWork(urgent);
  // A batch asking for its slot now (none runs) does not queue behind the 100.
  let newcomer = false;
  void urgent.quiet(10_000).then(() => (newcomer = true));
  await Promise.resolve();
  expect(newcomer).toBe(true);
  expect(released).toEqual([]);
  await Promise.all(waiters);
});
