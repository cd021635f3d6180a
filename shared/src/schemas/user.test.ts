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

describe('role flags', () => {
  test('a customer has no flags and no empresa', () => {
    expect(deriveRoleFlags('customer', null)).toEqual({
      permissions: false,
      superAdmin: false,
      admin: false,
    });
  });

  test('a pending airline is empresa false without permissions', () => {
    expect(deriveRoleFlags('airline', 'pending')).toEqual({
      permissions: false,
      superAdmin: false,
      admin: false,
      empresa: false,
    });
  });

  test('an approved airline has permissions, admin and empresa', () => {
    expect(deriveRoleFlags('airline', 'approved')).toEqual({
      permissions: true,
      superAdmin: false,
      admin: true,
      empresa: true,
    });
  });

  test('the super administrator is superAdmin and admin', () => {
    expect(deriveRoleFlags('super_admin', null)).toEqual({
      permissions: false,
      superAdmin: true,
      admin: true,
    });
  });
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
    expect(
      SaveAirlinePayloadSchema.safeParse({ name: 'Sky Air', image: 'https://a.io/l.png' }).success,
    ).toBe(true);
    expect(
      SaveAirlinePayloadSchema.safeParse({ name: 'Sky Air', image: 'https://a.io/l.svg' }).success,
    ).toBe(false);
    expect(
      SaveAirlinePayloadSchema.safeParse({ name: '', image: 'https://a.io/l.png' }).success,
    ).toBe(false);
  });
});
