import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON-lines logger. By default it writes to stdout asynchronously: a synchronous write per
 * request line cost about a third of the catalogue endpoint's CPU in the benchmark. A request's
 * lines name it by `requestId` (app.ts); lines written deeper name what they concern (a
 * `paymentId`, a stream's `requestId`), docs/decisions/026-request-ids-without-async-context.md.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
    },
    // Lines are written 4 KiB at a time, and at least every second: one write(2) per line, through
    // the thread pool, cost ~40 µs of the ~200 µs of server CPU of a catalogue answer
    // (docs/architecture.md §12). pino flushes what is left when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 }),
  );
}
