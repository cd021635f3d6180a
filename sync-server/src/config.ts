import { z } from 'zod';

/** Environment, parsed once at start-up; a bad value stops the server with the key's name. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /**
   * A PostgreSQL server; without it the server runs an embedded PostgreSQL (the demo). In
   * production it is required unless EMBEDDED_DATABASE=true asks for the embedded one.
   */
  DATABASE_URL: z.string().url().optional(),
  /**
   * Security/operations: production refuses to start without DATABASE_URL, since an embedded
   * database per machine would give every instance behind a load balancer its own data. `true`
   * allows it (one machine, one instance).
   */
  EMBEDDED_DATABASE: z.enum(['true', 'false']).default('false'),
  /** Connections in this instance's pool (plus one for LISTEN); mind PostgreSQL's max_connections. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  /**
   * Connections of the instance's second pool, for sync (pulls, pushes and their session lookups):
   * a storm of device syncs queues there, never in front of a checkout or a page (issue 15).
   */
  DATABASE_SYNC_POOL_MAX: z.coerce.number().int().min(2).max(500).default(8),
  /**
   * What this instance serves: `all` (the default), `sync` (device sync, /api/sync/*, and health
   * only) or `app` (everything but sync: the PWA, the API, checkout). A proxy that sends /api/sync/
   * to `sync` instances and the rest to `app` ones keeps checkouts off the event loops a storm of
   * pushes keeps busy (docs/decisions/025-sync-on-instances-of-its-own.md).
   */
  INSTANCE_ROLE: z.enum(['all', 'app', 'sync']).default('all'),
  /** Where the embedded PostgreSQL keeps its files (git-ignored). */
  EMBEDDED_PG_DIR: z.string().default('.data/pg'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Load demo data: `auto` = only into an empty embedded database, `always`, or `never`. */
  SEED_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `json` (JSON lines) or `pretty` (a readable line per entry, through pino-pretty, a development
   * dependency). Unset: pretty when `npm start` runs on a terminal, JSON everywhere else
   * (lib/logger.ts chooseLogFormat). Production logs JSON.
   */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** The built PWA served on the same origin as the API (default: the build's own, or pwa/dist). */
  PUBLIC_DIR: z.string().optional(),
  /**
   * How long a SIGTERM waits for in-flight requests, streams and background work before it closes
   * the database pool and exits anyway.
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
  /**
   * Prometheus metrics (`GET /metrics`) on a port of their own, so they are never on the public
   * one; off when unset.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The address the metrics port listens on: loopback unless told otherwise. */
  METRICS_HOST: z.string().default('127.0.0.1'),
  // Sync streams (Server-Sent Events): what one instance spends on them (sync/stream-limits.ts).
  /**
   * Open sync streams per client address (TRUST_PROXY decides what the address is); 429 past it.
   * Generous: many customers can share one address (carrier-grade NAT, an office).
   */
  STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Open sync streams on one instance, all clients together; 429 past it. */
  STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * Bytes of changes a stream may hold for a client that does not read them; past it the stream
   * ends with a reconnect hint and the client catches up by pulling.
   */
  STREAM_QUEUE_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(256 * 1024 * 1024)
    .default(1024 * 1024),
  /** A stream write the client does not take within this many ms ends its connection. */
  STREAM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(10_000),
  // Identity and email (docs/decisions/002-identity-on-primitives.md).
  /**
   * The PWA's public origin(s), comma-separated: the first is used in email links, all may send
   * cookie-authenticated requests (CSRF check). Default: the API's own origin, and in development
   * the Vite dev server.
   */
  APP_ORIGIN: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url().transform((url) => new URL(url).origin))),
  /** Session lifetime in seconds (absolute): default 7 days, at most 400 days. */
  SESSION_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(400 * 24 * 3600)
    .default(7 * 24 * 3600),
  /** Take client addresses from X-Forwarded-For (only behind a proxy that sets it). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** SMTP server for outgoing mail (nodemailer URL, smtp:// or smtps://); else the database outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Skyport <no-reply@skyport.local>'),
  /** Firebase Authentication adapter: on when a project id is set. */
  FIREBASE_PROJECT_ID: z
    .string()
    .regex(/^[a-z0-9-]{4,40}$/)
    .optional(),
  /** The key set Firebase ID tokens are checked against (Google's by default). */
  FIREBASE_JWKS_URL: z.string().url().optional(),
  // Payments (docs/architecture.md §6): `test` is the built-in provider; `stripe` takes cards and `paypal`
  // wallets, each also switching on the other when its keys are set.
  PAYMENT_PROVIDER: z.enum(['test', 'stripe', 'paypal']).default('test'),
  /** Security: production refuses the test provider unless this is `true`. */
  ALLOW_TEST_PAYMENTS: z.enum(['true', 'false']).default('false'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** The publishable key the PWA's card element uses (public; served by GET /api/checkout/config). */
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  /** Stripe's API base address (a local peer in tests); Stripe's own when unset. */
  STRIPE_API_BASE: z.string().url().optional(),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_API_BASE: z.string().url().default('https://api-m.sandbox.paypal.com'),
  /** How long a payment provider call may take before the checkout treats it as unanswered. */
  PAYMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // Seat holds (issue 17, docs/decisions/013-seat-holds.md).
  /** How long a seat hold keeps the cart's seats while the customer pays, in seconds. */
  SEAT_HOLD_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(600),
  /** The most of a flight's seats one customer may hold at once, in percent. */
  SEAT_HOLD_MAX_SHARE_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  /** How often each instance runs the job that gives expired holds' seats back (one at a time). */
  SEAT_HOLD_RELEASE_EVERY_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  // Signed e-tickets (issue 17, docs/decisions/014-signed-tickets.md).
  /**
   * Security: seals the ticket signing keys' private halves in the database (AES-256-GCM under a
   * key derived from it). Unset, new keys are stored unsealed (production warns at start-up).
   * Keep it: keys sealed under it cannot sign without it (their tickets still verify).
   */
  TICKET_KEY_SECRET: z.string().min(32, 'must have at least 32 characters').optional(),
});

/** The seat-hold settings of the app (AppDeps.holds) from the environment. */
export function holdSettingsFromConfig(config: Config) {
  return {
    ttlMs: config.SEAT_HOLD_SECONDS * 1000,
    maxSharePercent: config.SEAT_HOLD_MAX_SHARE_PERCENT,
    releaseEveryMs: config.SEAT_HOLD_RELEASE_EVERY_MS,
  };
}

export type Config = z.infer<typeof EnvSchema>;

/** Every variable the server reads, with its default (README's table is checked against this). */
export const CONFIG_VARIABLES = Object.entries(EnvSchema.shape).map(([name, schema]) => {
  const fallback = (schema as z.ZodType).safeParse(undefined);
  return { name, defaultValue: fallback.success ? fallback.data : undefined };
});

/** Every problem of the environment at once, so a deployment is fixed in one round. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  // The rules between keys are checked too when some value is bad: on the other keys' values,
  // with the bad keys left at their defaults.
  const badKeys = new Set(parsed.error?.issues.map((issue) => String(issue.path[0])));
  const usable = parsed.success
    ? parsed
    : EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([k]) => !badKeys.has(k))));
  if (usable.success) {
    const config = usable.data;
    problems.push(
      ...[
        ...checkDatabaseConfig(config),
        ...checkPaymentConfig(config),
        ...checkIdentityConfig(config),
        ...checkLogConfig(config),
      ].filter((problem) => !badKeys.has(problem.split(':')[0] ?? '')),
    );
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  return parsed.data;
}

/** Production runs on a database server that every instance shares. */
function checkDatabaseConfig(config: Config): string[] {
  if (
    config.NODE_ENV === 'production' &&
    !config.DATABASE_URL &&
    config.EMBEDDED_DATABASE !== 'true'
  ) {
    return [
      'DATABASE_URL: required in production (set EMBEDDED_DATABASE=true to run a single instance on the embedded PostgreSQL)',
    ];
  }
  return [];
}

/** The payment keys that must come together; the test provider only outside production. */
function checkPaymentConfig(config: Config): string[] {
  const problems: string[] = [];
  if (
    config.PAYMENT_PROVIDER === 'test' &&
    config.NODE_ENV === 'production' &&
    config.ALLOW_TEST_PAYMENTS !== 'true'
  ) {
    problems.push(
      'PAYMENT_PROVIDER: the test payment provider is refused in production (set ALLOW_TEST_PAYMENTS=true to allow it)',
    );
  }
  if (config.PAYMENT_PROVIDER === 'stripe' && !config.STRIPE_SECRET_KEY) {
    problems.push('STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER=stripe');
  }
  if (
    config.PAYMENT_PROVIDER === 'paypal' &&
    !(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET)
  ) {
    problems.push(
      'PAYPAL_CLIENT_ID: PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are required when PAYMENT_PROVIDER=paypal',
    );
  }
  return problems;
}

/** Identity settings production cannot guess: the public origin (email links, CSRF). */
function checkIdentityConfig(config: Config): string[] {
  const problems: string[] = [];
  if (config.NODE_ENV === 'production' && config.APP_ORIGIN.length === 0) {
    problems.push(
      'APP_ORIGIN: required in production (the public URL used in email links and the CSRF check)',
    );
  }
  if (config.FIREBASE_JWKS_URL && !config.FIREBASE_PROJECT_ID) {
    problems.push('FIREBASE_PROJECT_ID: required when FIREBASE_JWKS_URL is set');
  }
  return problems;
}

/** Production logs JSON lines (a log collector reads them; pino-pretty is not deployed). */
function checkLogConfig(config: Config): string[] {
  if (config.NODE_ENV === 'production' && config.LOG_FORMAT === 'pretty') {
    return ['LOG_FORMAT: production logs JSON lines (pretty is for development)'];
  }
  return [];
}
