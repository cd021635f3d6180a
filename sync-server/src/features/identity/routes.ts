import {
  ChangePasswordInputSchema,
  FirebaseSignInInputSchema,
  LoginInputSchema,
  PasswordResetInputSchema,
  PasswordResetRequestInputSchema,
  RegisterAirlineInputSchema,
  RegisterCustomerInputSchema,
  VerifyEmailInputSchema,
  messages,
  type SessionResponse,
} from '@skyport/shared';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import {
  changePassword,
  findOrCreateFirebaseUser,
  login,
  openSession,
  registerAccount,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verifyEmail,
  type RequestMeta,
} from './accounts.ts';
import { requireUser, type AuthEnv } from './guard.ts';
import { clientIp } from './middleware.ts';
import {
  enforceRateLimit,
  loginDeviceCookie,
  readLoginDeviceToken,
  refundRateLimit,
} from './rate-limit.ts';
import {
  clearSessionCookie,
  deleteSession,
  readSessionToken,
  setSessionCookie,
  type NewSession,
} from './sessions.ts';
import type { IdentityDeps } from './settings.ts';
import type { AuthUser } from './users.ts';

/** Built-in identity under `/api/auth/*` (see docs/api/identity.md). */
export function identityRoutes(deps: IdentityDeps) {
  const { settings } = deps;
  const meta = (c: Context): RequestMeta => ({
    ip: clientIp(c, settings),
    userAgent: c.req.header('user-agent') ?? null,
  });
  const signedIn = (c: Context, result: { user: AuthUser; session: NewSession }) => {
    setSessionCookie(c, result.session, settings.secureCookies);
    const body: SessionResponse = {
      user: result.user,
      token: result.session.token,
      expiresAt: result.session.expiresAt.getTime(),
    };
    return c.json(body, 200);
  };

  const app = new Hono<AuthEnv>()
    .use('/auth/*', async (c, next) => {
      await next();
      // Answers about a person's account are never cached by the browser or a proxy.
      c.header('Cache-Control', 'no-store');
    })

    .post('/auth/register', validate('json', RegisterCustomerInputSchema), async (c) => {
      await registerAccount(deps, c.req.valid('json'), 'customer', meta(c));
      return c.json({ message: messages.checkYourEmail }, 202);
    })

    .post('/auth/register/airline', validate('json', RegisterAirlineInputSchema), async (c) => {
      await registerAccount(deps, c.req.valid('json'), 'airline', meta(c));
      return c.json({ message: messages.airlineRegistered }, 202);
    })

    .post('/auth/login', validate('json', LoginInputSchema), async (c) => {
      const result = await login(deps, c.req.valid('json'), {
        ...meta(c),
        previousToken: readSessionToken(c)?.token,
        deviceToken: readLoginDeviceToken(c),
      });
      const response = signedIn(c, result);
      // The device cookie (rate limits per known device) goes after the session cookie.
      response.headers.append(
        'Set-Cookie',
        loginDeviceCookie(c, result.device, settings.secureCookies),
      );
      return response;
    })

    .post('/auth/logout', async (c) => {
      const session = c.get('session');
      if (session) await deleteSession(deps.sql, session.id);
      clearSessionCookie(c, settings.secureCookies);
      return c.body(null, 204);
    })

    .get('/auth/me', requireUser(), (c) => c.json({ user: c.var.authUser }, 200))

    .post('/auth/verify-email', validate('json', VerifyEmailInputSchema), async (c) => {
      await verifyEmail(deps, c.req.valid('json').token);
      return c.json({ message: messages.emailVerifiedDone }, 200);
    })

    .post('/auth/verify-email/resend', requireUser(), async (c) => {
      await resendVerification(deps, c.var.authUser);
      return c.json({ message: messages.checkYourEmail }, 202);
    })

    .post('/auth/password/forgot', validate('json', PasswordResetRequestInputSchema), async (c) => {
      await requestPasswordReset(deps, c.req.valid('json').email, meta(c));
      return c.json({ message: messages.checkYourEmail }, 202);
    })

    .post('/auth/password/reset', validate('json', PasswordResetInputSchema), async (c) => {
      await resetPassword(deps, c.req.valid('json'));
      return c.json({ message: messages.passwordChanged }, 200);
    })

    .post(
      '/auth/password/change',
      requireUser(),
      validate('json', ChangePasswordInputSchema),
      async (c) => {
        const session = c.get('session');
        if (!session) throw new AppError(ErrorCode.Unauthenticated, messages.loginRequired);
        await changePassword(deps, c.var.authUser, session.id, c.req.valid('json'));
        return c.json({ message: messages.passwordChanged }, 200);
      },
    );

  const firebase = settings.firebase;
  if (firebase) {
    app.post('/auth/firebase', validate('json', FirebaseSignInInputSchema), async (c) => {
      const requestMeta = meta(c);
      const ipKey = `login:ip:${requestMeta.ip}`;
      await enforceRateLimit(deps.sql, ipKey, settings.limits.loginPerIp);
      const identity = await firebase.verify(c.req.valid('json').idToken);
      const user = await findOrCreateFirebaseUser(deps, identity);
      await refundRateLimit(deps.sql, ipKey);
      return signedIn(
        c,
        await openSession(deps, user.id, {
          ...requestMeta,
          previousToken: readSessionToken(c)?.token,
        }),
      );
    });
  }
  return app;
}
