import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { AppError, ErrorCode } from '../../lib/errors.ts';

/** Google's public keys for Firebase ID tokens, as a JWK set. */
export const GOOGLE_SECURETOKEN_JWKS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/** What a verified Firebase ID token says about its holder. */
export interface FirebaseIdentity {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** Verifies a Firebase ID token; throws a 401 `AppError` for any token that is not valid. */
export interface FirebaseVerifier {
  readonly projectId: string;
  verify(idToken: string): Promise<FirebaseIdentity>;
}

const INVALID_TOKEN = 'Invalid identity token';

/**
 * Firebase ID tokens, checked as Firebase documents them: RS256 signature by a key of the
 * configured key set (`kid` must match), `aud` = project id, `iss` =
 * `https://securetoken.google.com/<project id>`, `exp` in the future, `iat` and `auth_time` in the
 * past, and a non-empty `sub` of at most 128 characters (the uid).
 */
export function createFirebaseVerifier(options: {
  projectId: string;
  jwksUrl?: string;
  /** Seconds of clock skew tolerated on exp/iat/auth_time. */
  clockToleranceSeconds?: number;
}): FirebaseVerifier {
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? GOOGLE_SECURETOKEN_JWKS_URL), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
    cacheMaxAge: 60 * 60 * 1000,
  });
  const tolerance = options.clockToleranceSeconds ?? 5;
  return {
    projectId: options.projectId,
    async verify(idToken) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, jwks, {
          algorithms: ['RS256'],
          audience: options.projectId,
          issuer: `https://securetoken.google.com/${options.projectId}`,
          requiredClaims: ['sub', 'iat', 'exp', 'auth_time'],
          clockTolerance: tolerance,
        }));
      } catch (error) {
        if (error instanceof joseErrors.JOSEError && !(error instanceof joseErrors.JWKSTimeout)) {
          throw new AppError(ErrorCode.Unauthenticated, INVALID_TOKEN, { reason: error.code });
        }
        throw error;
      }
      const now = Math.floor(Date.now() / 1000);
      const authTime = payload.auth_time;
      if (typeof authTime !== 'number' || authTime > now + tolerance) {
        throw new AppError(ErrorCode.Unauthenticated, INVALID_TOKEN, { reason: 'auth_time' });
      }
      const uid = payload.sub;
      if (
        typeof uid !== 'string' ||
        uid.length === 0 ||
        uid.length > 128 ||
        !/^[A-Za-z0-9_-]+$/.test(uid)
      ) {
        throw new AppError(ErrorCode.Unauthenticated, INVALID_TOKEN, { reason: 'sub' });
      }
      const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : null;
      return {
        uid,
        email: email && email.length <= 254 ? email : null,
        emailVerified: payload.email_verified === true,
        name: typeof payload.name === 'string' ? payload.name.slice(0, 80) : null,
        picture:
          typeof payload.picture === 'string' && /^https?:\/\//i.test(payload.picture)
            ? payload.picture.slice(0, 2048)
            : null,
      };
    },
  };
}
