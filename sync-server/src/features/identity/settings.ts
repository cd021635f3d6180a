import type { Sql } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Mailer } from '../email/mailer.ts';
import type { BackgroundTasks } from '../../lib/background-tasks.ts';
import type { FirebaseVerifier } from './firebase.ts';
import type { RateLimit } from './rate-limit.ts';

/** How identity behaves; `resolveIdentitySettings` fills in defaults that suit development and tests. */
export interface IdentitySettings {
  /**
   * Origins whose pages may send cookie-authenticated state-changing requests (besides the API's own
   * origin). The first is the PWA's public URL used in email links.
   */
  appOrigins: string[];
  /** Session lifetime (absolute), in seconds. */
  sessionTtlSeconds: number;
  verifyEmailTtlSeconds: number;
  resetPasswordTtlSeconds: number;
  /** `auto`: Secure cookies on every host but localhost. */
  secureCookies: 'auto' | boolean;
  /** Take the client address from `X-Forwarded-For` (only behind a proxy that sets it). */
  trustProxy: boolean;
  limits: {
    /** Login attempts per account from clients without a valid device cookie of it (untrusted). */
    loginPerAccount: RateLimit;
    /** Login attempts per client address without a valid device cookie. */
    loginPerIp: RateLimit;
    /** Login attempts per device cookie; past it the cookie is revoked (see rate-limit.ts). */
    loginPerDevice: RateLimit;
    /** Wrong old passwords on Change Password, per user. */
    passwordChangePerUser: RateLimit;
    passwordResetPerEmail: RateLimit;
    passwordResetPerIp: RateLimit;
    registerPerIp: RateLimit;
    verificationResendPerUser: RateLimit;
  };
  /** Firebase ID-token sign-in; absent unless configured. */
  firebase?: FirebaseVerifier;
}

export type IdentitySettingsInput = Partial<Omit<IdentitySettings, 'limits'>> & {
  limits?: Partial<IdentitySettings['limits']>;
};

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const DEFAULT_PUBLIC_URL = 'http://localhost:8080';

export function resolveIdentitySettings(input: IdentitySettingsInput = {}): IdentitySettings {
  return {
    appOrigins: input.appOrigins ?? [],
    sessionTtlSeconds: input.sessionTtlSeconds ?? 7 * 24 * HOUR,
    verifyEmailTtlSeconds: input.verifyEmailTtlSeconds ?? 24 * HOUR,
    resetPasswordTtlSeconds: input.resetPasswordTtlSeconds ?? HOUR,
    secureCookies: input.secureCookies ?? 'auto',
    trustProxy: input.trustProxy ?? false,
    limits: {
      loginPerAccount: { max: 10, windowSeconds: 15 * MINUTE },
      loginPerIp: { max: 50, windowSeconds: 15 * MINUTE },
      loginPerDevice: { max: 10, windowSeconds: 15 * MINUTE },
      passwordChangePerUser: { max: 10, windowSeconds: 15 * MINUTE },
      passwordResetPerEmail: { max: 5, windowSeconds: HOUR },
      passwordResetPerIp: { max: 20, windowSeconds: HOUR },
      registerPerIp: { max: 20, windowSeconds: HOUR },
      verificationResendPerUser: { max: 5, windowSeconds: HOUR },
      ...input.limits,
    },
    firebase: input.firebase,
  };
}

/** The public URL of the PWA, for links in emails. */
export function publicUrl(settings: IdentitySettings): string {
  return settings.appOrigins[0] ?? DEFAULT_PUBLIC_URL;
}

/** What the identity and admin routes need. */
export interface IdentityDeps {
  sql: Sql;
  logger: Logger;
  mailer: Mailer;
  settings: IdentitySettings;
  background: BackgroundTasks;
}
