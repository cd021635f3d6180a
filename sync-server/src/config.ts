import { z } from 'zod';

/** Environment, parsed once at start-up; a bad value stops the server with the key's name. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** A PostgreSQL server; without it the server runs an embedded PostgreSQL. */
  DATABASE_URL: z.string().url().optional(),
  /** Where the embedded PostgreSQL keeps its files (git-ignored). */
  EMBEDDED_PG_DIR: z.string().default('.data/pg'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Load demo data: `auto` = only into an empty embedded database, `always`, or `never`. */
  SEED_DEMO: z.enum(['auto', 'always', 'never']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** The built PWA served on the same origin as the API. */
  PUBLIC_DIR: z.string().optional(),
});

export type Config = z.infer<typeof EnvSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const keys = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${keys.join('; ')}`);
  }
  return parsed.data;
}
