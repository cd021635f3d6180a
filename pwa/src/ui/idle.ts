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
