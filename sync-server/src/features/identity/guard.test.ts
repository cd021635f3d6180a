import { deriveRoleFlags } from '@skyport/shared';
import { describe, expect, test } from 'vitest';
import {
  assertCanAccessUserData,
  assertCanManageAirline,
  canAccessUserData,
  canManageAirline,
  checkAccess,
  ownAirlineId,
} from './guard.ts';
import type { AuthUser } from './users.ts';

function user(overrides: Partial<AuthUser> = {}): AuthUser {
  const role = overrides.role ?? 'customer';
  const airlineStatus = overrides.airlineStatus ?? null;
  return {
    id: 'u1',
    email: 'u1@test',
    name: 'U',
    lastName: null,
    image: null,
    phone: null,
    uid: 'uid1',
    role,
    airlineStatus,
    emailVerified: true,
    disabled: false,
    airlineId: null,
    createdAt: 0,
    ...deriveRoleFlags(role, airlineStatus),
    ...overrides,
  };
}

const customer = user();
const unverified = user({ emailVerified: false });
const pending = user({ id: 'p1', role: 'airline', airlineStatus: 'pending' });
const airline = user({ id: 'a1', role: 'airline', airlineStatus: 'approved', airlineId: 'air-1' });
const admin = user({ id: 's1', role: 'super_admin' });

const code = (error: ReturnType<typeof checkAccess>) => error?.code ?? 'ok';

describe('checkAccess', () => {
  test('a guest is unauthenticated for every rule', () => {
    expect(code(checkAccess(null))).toBe('unauthenticated');
    expect(code(checkAccess(null, { roles: ['customer'] }))).toBe('unauthenticated');
  });

  test('a disabled user is treated as signed out', () => {
    expect(code(checkAccess(user({ disabled: true })))).toBe('unauthenticated');
  });

  test('roles', () => {
    expect(code(checkAccess(customer, { roles: ['super_admin'] }))).toBe('forbidden');
    expect(code(checkAccess(admin, { roles: ['super_admin'] }))).toBe('ok');
    expect(code(checkAccess(airline, { roles: ['customer'] }))).toBe('forbidden');
  });

  test('verified email', () => {
    const denied = checkAccess(unverified, { verified: true });
    expect(code(denied)).toBe('forbidden');
    expect(denied?.details).toEqual({ reason: 'email_not_verified' });
    expect(code(checkAccess(customer, { verified: true }))).toBe('ok');
  });

  test('approved airline', () => {
    const rule = { roles: ['airline'] as const, approvedAirline: true };
    expect(code(checkAccess(pending, rule))).toBe('forbidden');
    expect(code(checkAccess(airline, rule))).toBe('ok');
    // Approved but its airline was deleted: no airline to act for.
    expect(code(checkAccess({ ...airline, airlineId: null }, rule))).toBe('forbidden');
    expect(
      code(checkAccess(admin, { roles: ['airline', 'super_admin'], approvedAirline: true })),
    ).toBe('ok');
  });
});

describe('ownership', () => {
  test('an airline manages only its own airline; the super administrator any', () => {
    expect(canManageAirline(airline, 'air-1')).toBe(true);
    expect(canManageAirline(airline, 'air-2')).toBe(false);
    expect(canManageAirline(pending, 'air-1')).toBe(false);
    expect(canManageAirline(admin, 'air-2')).toBe(true);
    expect(() => assertCanManageAirline(airline, 'air-2')).toThrow(
      expect.objectContaining({ code: 'forbidden' }),
    );
    expect(ownAirlineId(airline)).toBe('air-1');
    expect(() => ownAirlineId(pending)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => ownAirlineId(admin)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  test('user data belongs to its owner; the super administrator only where allowed', () => {
    expect(canAccessUserData(customer, 'u1')).toBe(true);
    expect(canAccessUserData(customer, 'u2')).toBe(false);
    expect(canAccessUserData(admin, 'u1')).toBe(false);
    expect(canAccessUserData(admin, 'u1', { allowSuperAdmin: true })).toBe(true);
    expect(() => assertCanAccessUserData(airline, 'u1')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });
});
