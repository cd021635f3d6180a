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
    // (docs/benchmarks.md §2). pino flushes what is left when the process exits.
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 }),
  );
}

/** How the server writes its log to stdout: JSON lines, or one readable line per entry. */
export type LogFormat = 'json' | 'pretty';

/**
 * `LOG_FORMAT` when set; otherwise readable lines only where a developer reads them: `npm start`
 * (the TypeScript source, outside production) on a terminal. Production, the built bundle, a pipe
 * or a file get JSON lines, for a log collector.
 */
export function chooseLogFormat(options: {
  setting: LogFormat | undefined;
  nodeEnv: string;
  fromSource: boolean;
  terminal: boolean;
}): LogFormat {
  if (options.setting) return options.setting;
  const development = options.nodeEnv !== 'production' && options.fromSource;
  return development && options.terminal ? 'pretty' : 'json';
}

/**
 * The server's logger on stdout (main.ts). `pretty` formats each entry on one line, in order with
 * the console's lines: time, level, the request id, the message, then the other fields
 * (`GET /api/flights 200 3.1 ms` for a request's line). pino-pretty is a development dependency,
 * loaded only here: where it is not installed (`pnpm deploy --prod`) the log stays JSON.
 */
export async function createStdoutLogger(
  level: string,
  format: LogFormat,
  /** Where pretty lines go instead of stdout (tests). */
  destination?: NodeJS.WritableStream,
): Promise<Logger> {
  if (format === 'json') return createLogger(level);
  let prettyStream: pino.DestinationStream;
  try {
    const { default: pretty } = await import('pino-pretty');
    prettyStream = pretty({
      colorize: !destination && process.stdout.isTTY === true,
      ...(destination ? { destination } : {}),
      translateTime: 'SYS:HH:MM:ss.l',
      singleLine: true,
      sync: true,
      ignore: 'requestId,method,path,status,ms',
      messageFormat: (log, messageKey) => {
        const request = typeof log.requestId === 'string' ? `[${log.requestId}] ` : '';
        const http =
          typeof log.method === 'string' && typeof log.path === 'string'
            ? `${log.method} ${log.path}${log.status === undefined ? '' : ` ${String(log.status)}`}${log.ms === undefined ? '' : ` ${String(log.ms)} ms`}`
            : '';
        const message = String(log[messageKey] ?? '');
        // A request's own line says the request; any other line says its message first.
        if (message === 'request' && http) return `${request}${http}`;
        return `${request}${message}${http ? ` (${http})` : ''}`;
      },
    });
  } catch {
    const logger = createLogger(level);
    logger.warn('LOG_FORMAT=pretty needs pino-pretty (a development dependency): logging JSON');
    return logger;
  }
  return createLogger(level, prettyStream);
}
