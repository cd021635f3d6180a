import { describe, expect, test } from 'vitest';
import {
  CreateUserPayloadSchema,
  DisableUserPayloadSchema,
  SaveAirlinePayloadSchema,
  UserEmailPayloadSchema,
  UserListQuerySchema,
  UserSchema,
  deriveRoleFlags,
} from './user.ts';

// A customer has no flags and no empresa; a pending airline is empresa false without
// permissions; an approved one has permissions, admin and empresa; the super administrator is
// superAdmin and admin.
test.each([
  ['customer', null, { permissions: false, superAdmin: false, admin: false }],
  ['airline', 'pending', { permissions: false, superAdmin: false, admin: false, empresa: false }],
  ['airline', 'approved', { permissions: true, superAdmin: false, admin: true, empresa: true }],
  ['super_admin', null, { permissions: false, superAdmin: true, admin: true }],
] as const)('the role flags of a %s (airline status %s) are %o', (role, status, flags) => {
  expect(deriveRoleFlags(role, status)).toEqual(flags);
});

test('the user view parses what the server sends', () => {
  const user = {
    id: '7d5d3f2e-9a55-4a8b-8f3e-0d1a2b3c4d5e',
    email: 'a@b.io',
    name: 'Ana',
    lastName: null,
    image: null,
    phone: null,
    uid: 'abc',
    role: 'customer',
    airlineStatus: null,
    emailVerified: true,
    disabled: false,
    airlineId: null,
    createdAt: 1_700_000_000_000,
    ...deriveRoleFlags('customer', null),
  };
  expect(UserSchema.parse(user)).toEqual(user);
});

describe('§7 admin payloads', () => {
  test('{email} is an address, lowercased', () => {
    expect(UserEmailPayloadSchema.parse({ email: 'X@Y.io' })).toEqual({ email: 'x@y.io' });
    expect(UserEmailPayloadSchema.safeParse({ email: 'x' }).success).toBe(false);
    expect(UserEmailPayloadSchema.safeParse({ email: 'x@y.io', role: 'super_admin' }).success).toBe(
      false,
    );
  });

  test('{uid} disables by default and refuses odd characters', () => {
    expect(DisableUserPayloadSchema.parse({ uid: 'abc-123' })).toEqual({
      uid: 'abc-123',
      disabled: true,
    });
    expect(DisableUserPayloadSchema.parse({ uid: 'abc', disabled: false })).toEqual({
      uid: 'abc',
      disabled: false,
    });
    expect(DisableUserPayloadSchema.safeParse({ uid: "x' OR 1=1 --" }).success).toBe(false);
    expect(DisableUserPayloadSchema.safeParse({ uid: 'x'.repeat(129) }).success).toBe(false);
  });

  test('POST /user/create takes {email, name, uid, img, phone}', () => {
    const payload = {
      email: 'n@b.io',
      name: "Ana O'Neil",
      uid: 'firebaseUid123',
      img: 'https://a.io/p.png',
      phone: '1234567890',
    };
    expect(CreateUserPayloadSchema.parse(payload)).toEqual(payload);
    expect(CreateUserPayloadSchema.safeParse({ ...payload, img: 'javascript:x' }).success).toBe(
      false,
    );
    expect(CreateUserPayloadSchema.safeParse({ email: 'n@b.io' }).success).toBe(false);
  });

  test('GET /user lists customers unless asked for airlines', () => {
    expect(UserListQuerySchema.parse({})).toEqual({ role: 'customer' });
    expect(UserListQuerySchema.parse({ role: 'airline', airlineStatus: 'pending' })).toEqual({
      role: 'airline',
      airlineStatus: 'pending',
    });
    expect(UserListQuerySchema.safeParse({ role: 'super_admin' }).success).toBe(false);
  });

  test('POST /airlines takes a name and a logo', () => {
    const accepts = (body: object) => SaveAirlinePayloadSchema.safeParse(body).success;
    expect(accepts({ name: 'Sky Air', image: 'https://a.io/l.png' })).toBe(true);
    expect(accepts({ name: 'Sky Air', image: 'https://a.io/l.svg' })).toBe(false);
    expect(accepts({ name: '', image: 'https://a.io/l.png' })).toBe(false);
  });
});
