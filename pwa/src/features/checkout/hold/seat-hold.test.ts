import { expect, test } from 'vitest';
import type { CartLine, SeatHold } from '@skyport/shared';
import { createSeatHolder } from './seat-hold.ts';

/**
 * The payment page's seat holder against a recording peer: what it asks the server, in which
 * order. (The server's side of holds, release included, is tested in
 * sync-server/src/features/checkout/seat-holds.test.ts; the page in e2e/checkout/seat-hold.spec.ts.)
 */

const lines = [{ flightId: 'f1', amount: 2 }] as unknown as CartLine[];

function holdAnswer(holdId: string): SeatHold {
  return {
    holdId,
    status: 'active',
    expiresAt: 0,
    expiresInMs: 600_000,
    lines: [],
    subtotalCents: 100_00,
    feeCents: 5_00,
    totalCents: 105_00,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A server that answers each request when the test says so, and records the order of events. */
function recordingPeer() {
  const events: string[] = [];
  const pending: Array<() => void> = [];
  let holds = 0;
  const later = <T>(name: string, value: () => T) =>
    new Promise<T>((resolve) => {
      events.push(`${name} sent`);
      pending.push(() => {
        events.push(`${name} answered`);
        resolve(value());
      });
    });
  return {
    events,
    /** Answers the oldest request not answered yet. */
    answer: async () => {
      await settle();
      pending.shift()!();
      await settle();
    },
    requests: {
      saveCart: () => later('save', () => undefined),
      holdSeats: () => later('hold', () => holdAnswer(`hold-${++holds}`)),
      releaseHold: (holdId: string) => later(`release ${holdId}`, () => undefined),
    },
  };
}

test('leaving the page with seats held gives them back, and a hold taken right after waits for that release', async () => {
  const peer = recordingPeer();
  const first = createSeatHolder(peer.requests, () => 0);
  first.take(lines);
  await peer.answer(); // save
  await peer.answer(); // hold
  expect(first.state.get()).toMatchObject({ name: 'held', hold: { holdId: 'hold-1' } });

  first.release();
  expect(first.state.get()).toEqual({ name: 'idle' });
  // The buyer comes straight back: the new page's hold is asked for only once the release is done.
  const second = createSeatHolder(peer.requests, () => 0);
  second.take(lines);
  await settle();
  expect(peer.events).toEqual([
    'save sent',
    'save answered',
    'hold sent',
    'hold answered',
    'release hold-1 sent',
  ]);
  await peer.answer(); // release
  await peer.answer(); // save
  await peer.answer(); // hold
  expect(peer.events.slice(4)).toEqual([
    'release hold-1 sent',
    'release hold-1 answered',
    'save sent',
    'save answered',
    'hold sent',
    'hold answered',
  ]);
  expect(second.state.get()).toMatchObject({ name: 'held', hold: { holdId: 'hold-2' } });
});

test('nothing is released when no hold is held, or when the hold has run out', async () => {
  const peer = recordingPeer();
  const holder = createSeatHolder(peer.requests, () => 0);
  holder.release();
  expect(peer.events).toEqual([]);

  let clock = 0;
  const expiring = createSeatHolder(peer.requests, () => clock);
  expiring.take(lines);
  await peer.answer();
  await peer.answer();
  clock = 600_000;
  expiring.release();
  expect(peer.events.some((event) => event.startsWith('release'))).toBe(false);
});

test('an answer to a hold asked for before the release is not shown afterwards', async () => {
  const peer = recordingPeer();
  const holder = createSeatHolder(peer.requests, () => 0);
  holder.take(lines);
  holder.release();
  await peer.answer(); // save
  await peer.answer(); // hold
  expect(holder.state.get()).toEqual({ name: 'idle' });
});
