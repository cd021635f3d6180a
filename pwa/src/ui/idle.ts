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

/**
 * Resolves in a new task, so that the browser can paint and answer input in between: long work
 * split at its awaits of this runs as several short tasks. `scheduler.yield()` where there is one
 * (the work then goes on before other tasks queued since, input first), else a message to the
 * page: unlike a timer, neither is slowed down in a hidden tab.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * Runs `work` once, `delayMs` after the page has loaded (its load event), in an idle moment;
 * returns a function that cancels it. For background work that should happen on every visit,
 * engaged or not, but after the page's own start-up.
 */
export function afterLoad(work: () => void, delayMs: number): () => void {
  let cancelIdle: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    window.removeEventListener('load', schedule);
    timer = setTimeout(() => (cancelIdle = whenIdle(work)), delayMs);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule);
  return () => {
    window.removeEventListener('load', schedule);
    clearTimeout(timer);
    cancelIdle?.();
  };
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
