import pino from 'pino';
import { currentRequestId } from './request-context.ts';

export type Logger = pino.Logger;

/**
 * JSON-lines logger. By default it writes to stdout asynchronously: a synchronous write per
 * request line cost about a third of the catalogue endpoint's CPU in the benchmark. Every line
 * written while a request is handled carries that request's id (`requestId`), whichever module
 * writes it, so one request's lines can be found together.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
