import postgres from 'postgres';

export type Sql = postgres.Sql;

/** The single postgres.js handle of a server instance. */
export function createSql(
  url: string,
  options: {
    max?: number;
    applicationName?: string;
    /** Called with every statement sent (tests that count a request's statements). */
    debug?: postgres.Options<Record<string, never>>['debug'];
  } = {},
): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    ...(options.debug ? { debug: options.debug } : {}),
    // Names this instance's connections in pg_stat_activity (the pool metric reads them there).
    ...(options.applicationName
      ? { connection: { application_name: options.applicationName } }
      : {}),
    onnotice: () => {},
    // int8 columns (cents, revisions, counts) come back as numbers: every value we store
    // stays far below Number.MAX_SAFE_INTEGER, and JSON cannot carry a BigInt.
    types: {
      int8: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    transform: { undefined: null },
  });
}
