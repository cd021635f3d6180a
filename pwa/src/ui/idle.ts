/** The longest wait for an idle moment: work deferred this way still starts soon on a busy page. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Runs `work` when the browser is idle (after the current frame has painted), at the latest after
 * a second; returns a function that cancels it. Safari has no requestIdleCallback: a short timer
 * stands in.
 */
export function whenIdle(work: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, 50);
  return () => clearTimeout(handle);
}

/** What counts as a visitor engaging with the page. */
const ENGAGEMENT_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

/**
 * Runs `work` once, when the visitor first engages with the page (a tap, a key, a scroll) or
 * leaves it (the tab is hidden), whichever comes first; returns a function that cancels it.
 * For background work that a visitor who only glances at the page does not need, and that must
 * not compete with the first paint and the first interactions on a slow phone.
 */
export function whenEngagedOrHidden(work: () => void): () => void {
  const options = { capture: true, passive: true } as const;
  const stop = () => {
    for (const type of ENGAGEMENT_EVENTS) window.removeEventListener(type, run, options);
    document.removeEventListener('visibilitychange', onVisibilityChange);
  };
  // The work starts after the event's own handlers, so the tap itself responds first.
  const run = () => {
    stop();
    whenIdle(work);
  };
  const onVisibilityChange = () => {
    if (document.visibilityState === 'hidden') run();
  };
  for (const type of ENGAGEMENT_EVENTS) window.addEventListener(type, run, options);
  document.addEventListener('visibilitychange', onVisibilityChange);
  return stop;
}
