import { expect, test } from 'vitest';
import { backgroundSlots, UrgentWork } from './urgent-work.ts';

/** A promise and its resolve, to hold work open until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

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

test('background slots: all of them at once, half while urgent work runs, all again after', async () => {
  const urgent = new UrgentWork();
  const slots = backgroundSlots(4, urgent);
  const held = Array.from({ length: 8 }, gate);
  let next = 0;
  const started: number[] = [];
  const work = () => {
    const index = next++;
    return slots(async () => {
      started.push(index);
      await held[index]!.opened;
    });
  };
  const running = [work(), work(), work(), work()];
  await settle();
  expect(started).toEqual([0, 1, 2, 3]);

  const checkout = gate();
  const urgentRun = urgent.run(() => checkout.opened);
  running.push(work(), work(), work(), work());
  // Four running, two allowed while urgent work runs: nothing new starts until two remain.
  held[0]!.open();
  held[1]!.open();
  await settle();
  expect(started).toEqual([0, 1, 2, 3]);
  held[2]!.open();
  await settle();
  expect(started).toEqual([0, 1, 2, 3, 4]);
  expect(slots.activeCount).toBe(2);

  // Urgent work ends: all four slots again, the waiting work starts in order.
  checkout.open();
  await urgentRun;
  await settle();
  expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(slots.activeCount).toBe(4);
  for (const { open } of held) open();
  await Promise.all(running);
});

test('one slot stays open for background work, however narrow', async () => {
  const urgent = new UrgentWork();
  const slots = backgroundSlots(1, urgent);
  const checkout = gate();
  const urgentRun = urgent.run(() => checkout.opened);
  await expect(slots(async () => 'pushed')).resolves.toBe('pushed');
  checkout.open();
  await urgentRun;
});
