/**
 * Runs `run` now and then every `intervalMs`, never two runs at once (a tick while one runs is
 * skipped), without keeping the process alive; a failed run is reported to `onError` and the next
 * tick tries again. Answers a stop that waits for the run in progress. The background jobs of the
 * server (payment reconciliation, seat hold release, ticket backfill) all run on it.
 */
export function startPeriodicJob(
  run: () => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= run()
      .catch(onError)
      .finally(() => (running = undefined));
    return running;
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
