import pino from 'pino';

export type Logger = pino.Logger;

/**
 * JSON-lines logger. By default it writes to stdout asynchronously: a synchronous write per
 * request line cost about a third of the catalogue endpoint's CPU in the benchmark.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: undefined },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
