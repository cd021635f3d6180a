import { useEffect, useState, useSyncExternalStore } from 'react';
import { createStore } from '../lib/store.ts';
import { formatTimeAgo, formatTimestamp } from './format.ts';
import { ClockIcon } from './icons.tsx';
import { uiLabels } from './labels.ts';

/**
 * How fresh the prices of the local catalogue are (docs/architecture.md §4.9): `live` while every
 * change reaches the device as it happens, else `asOf`, when the catalogue last matched the
 * server's (null: unknown on this device).
 */
export interface CatalogueFreshness {
  live: boolean;
  asOf: number | null;
}

/**
 * What a price from the local catalogue says about its age: nothing while live (or before the
 * local data has opened), else "Prices as of 12 minutes ago".
 */
export function freshnessText(
  freshness: CatalogueFreshness | null,
  now: number,
  timeAgo: (instant: number, now: number) => string = formatTimeAgo,
): string | null {
  if (!freshness || freshness.live) return null;
  if (freshness.asOf === null) return uiLabels.pricesAsOfUnknown;
  return uiLabels.pricesAsOf(timeAgo(freshness.asOf, now));
}

/** How often the text moves on ("12 minutes ago" → "13 minutes ago"). */
const TICK_MS = 15_000;
/**
 * A lost live connection usually comes back within this (the stream reconnects with backoff),
 * and the app's start-up connects within it: the note waits that long before it shows.
 */
export const FRESHNESS_GRACE_MS = 2_000;

/** The time now, moved on every TICK_MS while a note shows it (one timer for all of them). */
const clock = createStore(0);
let subscribers = 0;
let timer: ReturnType<typeof setInterval> | undefined;
function subscribeToClock(listener: () => void): () => void {
  const unsubscribe = clock.subscribe(listener);
  subscribers += 1;
  if (subscribers === 1) {
    clock.set(Date.now());
    timer = setInterval(() => clock.set(Date.now()), TICK_MS);
  }
  return () => {
    unsubscribe();
    subscribers -= 1;
    if (subscribers === 0) clearInterval(timer);
  };
}

function FreshnessNote({ asOf, className }: { asOf: number | null; className: string }) {
  const now = useSyncExternalStore(subscribeToClock, clock.get, clock.get);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const wait = setTimeout(() => setShown(true), FRESHNESS_GRACE_MS);
    return () => clearTimeout(wait);
  }, []);
  const text = freshnessText({ live: false, asOf }, now);
  if (!shown || !text) return null;
  return (
    <p
      className={`flex items-center gap-1 text-xs text-base-content/70 ${className}`}
      data-testid="price-freshness"
      title={asOf === null ? undefined : formatTimestamp(asOf)}
    >
      <ClockIcon className="size-3.5 shrink-0" />
      {text}
    </p>
  );
}

/**
 * The age of the prices shown near them: nothing while live, "Prices as of 12 minutes ago" once
 * the device has been out of touch for a moment (offline, live connection lost).
 */
export function PriceFreshness({
  freshness,
  className = '',
}: {
  freshness: CatalogueFreshness | null;
  className?: string;
}) {
  if (!freshness || freshness.live) return null;
  return <FreshnessNote asOf={freshness.asOf} className={className} />;
}
