import {
  CreateUserPayloadSchema,
  DisableUserPayloadSchema,
  EmailSchema,
  IdSchema,
  SaveAirlinePayloadSchema,
  UidSchema,
  UserEmailPayloadSchema,
  UserListQuerySchema,
  VerificateEmailPayloadSchema,
  messages,
} from '@skyport/shared';
import { Hono } from 'hono';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import { requestPasswordReset } from '../identity/accounts.ts';
import {
  requireApprovedAirline,
  requireRole,
  requireUser,
  type AuthEnv,
} from '../identity/guard.ts';
import { clientIp } from '../identity/middleware.ts';
import type { IdentityDeps } from '../identity/settings.ts';
import { findUserById } from '../identity/users.ts';
import {
  approveAirline,
  createUser,
  deleteAirline,
  deleteUser,
  disableUser,
  listIdentityAccounts,
  listUsers,
  saveAirline,
} from './queries.ts';

/**
 * The spec's §7 user and airline routes, with their paths and payloads, each behind the guard.
 * (The public `GET /airlines` belongs to the catalogue.)
 */
export function adminRoutes(deps: IdentityDeps) {
  const { sql } = deps;
  const superAdmin = requireRole('super_admin');

  return (
    new Hono<AuthEnv>()
      .use('/user/*', async (c, next) => {
        await next();
        c.header('Cache-Control', 'no-store');
      })
      .use('/user', async (c, next) => {
        await next();
        c.header('Cache-Control', 'no-store');
      })

      .get('/user', superAdmin, validate('query', UserListQuerySchema), async (c) => {
        return c.json(await listUsers(sql, c.req.valid('query'), c.var.authUser.id), 200);
      })

      .get('/user/firebase', superAdmin, async (c) => c.json(await listIdentityAccounts(sql), 200))

      .post('/user/create', superAdmin, validate('json', CreateUserPayloadSchema), async (c) => {
        return c.json(await createUser(sql, c.req.valid('json')), 201);
      })

      // Marks the caller's own address verified, and only with proof: never an arbitrary email.
      .put(
        '/user/verificateEmail',
        requireUser(),
        validate('json', VerificateEmailPayloadSchema),
        async (c) => {
          const caller = c.var.authUser;
          const payload = c.req.valid('json');
          if (payload.email !== caller.email.toLowerCase()) {
            throw new AppError(ErrorCode.Forbidden, messages.notAllowed, {
              reason: 'not_own_email',
            });
          }
          if (caller.emailVerified) return c.json(caller, 200);
          const firebase = deps.settings.firebase;
          if (payload.idToken && firebase) {
            // An invalid proof is no proof (403), not a reason to sign the caller out (401).
            const identity = await firebase.verify(payload.idToken).catch(() => undefined);
            if (
              identity &&
              identity.uid === caller.uid &&
              identity.emailVerified &&
              identity.email === payload.email
            ) {
              await sql`UPDATE users SET email_verified = true, updated_at = now() WHERE id = ${caller.id}`;
              const user = await findUserById(sql, caller.id);
              if (user) return c.json(user, 200);
            }
          }
          throw new AppError(ErrorCode.Forbidden, messages.verifyEmailToBuy, {
            reason: 'email_not_verified',
          });
        },
      )

      // The spec's reset call; the same answer whether or not the account exists.
      .post(
        '/user/resetPassword/:email',
        validate('param', z.object({ email: EmailSchema })),
        async (c) => {
          const meta = {
            ip: clientIp(c, deps.settings),
            userAgent: c.req.header('user-agent') ?? null,
          };
          await requestPasswordReset(deps, c.req.valid('param').email, meta);
          return c.json({ message: messages.checkYourEmail }, 202);
        },
      )

      .put('/user/update', superAdmin, validate('json', UserEmailPayloadSchema), async (c) => {
        return c.json(await approveAirline(sql, c.req.valid('json').email), 200);
      })

      .delete(
        '/user/delete/:email',
        superAdmin,
        validate('param', z.object({ email: EmailSchema })),
        async (c) => {
          await deleteUser(sql, { email: c.req.valid('param').email });
          return c.json({ message: messages.deleted }, 200);
        },
      )

      .delete(
        '/user/auth/:uid',
        superAdmin,
        validate('param', z.object({ uid: UidSchema })),
        async (c) => {
          await deleteUser(sql, { uid: c.req.valid('param').uid });
          return c.json({ message: messages.deleted }, 200);
        },
      )

      .put(
        '/user/disableUser',
        superAdmin,
        validate('json', DisableUserPayloadSchema),
        async (c) => {
          const { uid, disabled } = c.req.valid('json');
          return c.json(await disableUser(sql, uid, disabled), 200);
        },
      )

      .post(
        '/airlines',
        requireApprovedAirline({ orSuperAdmin: true }),
        validate('json', SaveAirlinePayloadSchema),
        async (c) => {
          const { airline, created } = await saveAirline(sql, c.var.authUser, c.req.valid('json'));
          return c.json(airline, created ? 201 : 200);
        },
      )

      .delete(
        '/airlines/delete/:id',
        superAdmin,
        validate('param', z.object({ id: IdSchema })),
        async (c) => {
          const { flightsRemoved } = await deleteAirline(sql, c.req.valid('param').id);
          return c.json({ message: messages.deleted, flightsRemoved }, 200);
        },
      )
  );
}
