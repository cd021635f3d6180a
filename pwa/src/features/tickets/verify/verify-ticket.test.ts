import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { beforeAll, expect, test } from 'vitest';
import { TICKET_TYPE, type TicketClaims, type TicketJwks } from '@skyport/shared';
import { verifyTicket } from './verify-ticket.ts';

/**
 * The device's own check of a ticket, with keys made here the way the server makes them
 * (Ed25519, `alg: EdDSA`, a kid per key): what the verification page shows offline.
 */

interface TestKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: TicketJwks['keys'][number];
}

async function newKey(kid: string): Promise<TestKey> {
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', {
    crv: 'Ed25519',
    extractable: true,
  });
  const { x } = await exportJWK(publicKey);
  return {
    kid,
    privateKey,
    jwk: { kty: 'OKP', crv: 'Ed25519', x: x!, kid, alg: 'EdDSA', use: 'sig' },
  };
}

const departure = Date.parse('2026-12-24T00:00:00Z') / 1000;
const claims: TicketClaims = {
  iss: 'skyport',
  jti: '6f1c5a34-5b0e-4f7e-9d7a-3c2b1a0f9e8d',
  iat: departure - 30 * 86_400,
  exp: departure + 2 * 86_400,
  order: '0d5e2f1a-7b3c-4c2d-8e9f-a1b2c3d4e5f6',
  flight: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  airline: 'Andes Air',
  from: 'Argentina',
  to: 'Chile',
  date: '2026-12-24',
  time: '08:00',
  seats: 2,
  name: 'Ada Lovelace',
};
const beforeTheFlight = new Date('2026-12-01T12:00:00Z');

let current: TestKey;
let retired: TestKey;
let jwks: TicketJwks;

beforeAll(async () => {
  current = await newKey('current-key');
  retired = await newKey('retired-key');
  jwks = { keys: [current.jwk, retired.jwk] };
});

function sign(key: TestKey, body: object = claims, typ = TICKET_TYPE) {
  return new SignJWT({ ...body })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ })
    .sign(key.privateKey);
}

test('a ticket signed with a key of the set is valid and shows its claims', async () => {
  const result = await verifyTicket(await sign(current), jwks, beforeTheFlight);
  expect(result).toEqual({ ok: true, claims, kid: 'current-key' });
});

test('a ticket of a retired key that is still in the set verifies too', async () => {
  const result = await verifyTicket(await sign(retired), jwks, beforeTheFlight);
  expect(result).toMatchObject({ ok: true, kid: 'retired-key' });
});

test('white space around a pasted ticket does not matter', async () => {
  const ticket = await sign(current);
  const result = await verifyTicket(`\n  ${ticket}  \n`, jwks, beforeTheFlight);
  expect(result.ok).toBe(true);
});

test('a tampered ticket is refused: its signature no longer matches', async () => {
  const [header, , signature] = (await sign(current)).split('.');
  const payload = Buffer.from(JSON.stringify({ ...claims, seats: 9 })).toString('base64url');
  const result = await verifyTicket(`${header}.${payload}.${signature}`, jwks, beforeTheFlight);
  expect(result).toEqual({ ok: false, problem: 'bad-signature' });
});

test('a ticket signed with a key the device does not have is refused as unknown', async () => {
  const stranger = await newKey('stranger');
  expect(await verifyTicket(await sign(stranger), jwks, beforeTheFlight)).toEqual({
    ok: false,
    problem: 'unknown-key',
  });
  // Even when it claims the kid of one of ours.
  const impostor = { ...stranger, kid: 'current-key' };
  expect(await verifyTicket(await sign(impostor), jwks, beforeTheFlight)).toEqual({
    ok: false,
    problem: 'bad-signature',
  });
});

test('after its expiry a ticket is expired', async () => {
  const afterTheFlight = new Date((claims.exp + 60) * 1000);
  expect(await verifyTicket(await sign(current), jwks, afterTheFlight)).toEqual({
    ok: false,
    problem: 'expired',
  });
});

test('anything but a Skyport ticket is malformed, and without keys nothing verifies', async () => {
  expect(await verifyTicket('', jwks)).toEqual({ ok: false, problem: 'malformed' });
  expect(await verifyTicket('hello there', jwks)).toEqual({ ok: false, problem: 'malformed' });
  // Another kind of token signed with our key (another `typ`), or one whose claims are not a ticket's.
  const otherType = await sign(current, claims, 'JWT');
  expect(await verifyTicket(otherType, jwks, beforeTheFlight)).toEqual({
    ok: false,
    problem: 'malformed',
  });
  const { seats: _seats, ...withoutSeats } = claims;
  expect(await verifyTicket(await sign(current, withoutSeats), jwks, beforeTheFlight)).toEqual({
    ok: false,
    problem: 'malformed',
  });
  expect(await verifyTicket(await sign(current), null)).toEqual({ ok: false, problem: 'no-keys' });
  expect(await verifyTicket(await sign(current), { keys: [] })).toEqual({
    ok: false,
    problem: 'no-keys',
  });
});
