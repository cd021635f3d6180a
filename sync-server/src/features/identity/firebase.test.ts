import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, describe, expect, test } from 'vitest';
import { insertUser } from '../../test/actors.ts';
import { bodyOf, createTestHarness, jsonRequest, randomIp } from '../../test/harness.ts';
import { createFirebaseVerifier } from './firebase.ts';
import { snapshot } from './testing.ts';

/**
 * The Firebase adapter against a key set of our own: RSA keys generated here, served as a JWKS on
 * a localhost HTTP server, tokens signed as Firebase signs them.
 */

const PROJECT = 'skyport-test';
let jwksRequests = 0;
const good = await generateKeyPair('RS256');
const signingKey: CryptoKey = good.privateKey;
const strangerKey: CryptoKey = (await generateKeyPair('RS256')).privateKey;
const jwks = {
  keys: [{ ...(await exportJWK(good.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' }],
};
const server: Server = createServer((request, response) => {
  jwksRequests += 1;
  if (request.url !== '/jwks') return void response.writeHead(404).end();
  response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwks));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
const firebase = createFirebaseVerifier({
  projectId: PROJECT,
  jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
});
const { sql, app, actors } = await createTestHarness({ actors: true, identity: { firebase } });

interface TokenOptions {
  key?: CryptoKey;
  kid?: string;
  audience?: string;
  issuer?: string;
  expiresIn?: number;
  claims?: JWTPayload;
}

async function idToken(uid: string, options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    auth_time: now - 5,
    firebase: { sign_in_provider: 'google.com' },
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'key-1', typ: 'JWT' })
    .setSubject(uid)
    .setAudience(options.audience ?? PROJECT)
    .setIssuer(options.issuer ?? `https://securetoken.google.com/${PROJECT}`)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(options.key ?? signingKey);
}

function signIn(token: string) {
  return app.request(
    '/api/auth/firebase',
    jsonRequest('POST', { idToken: token }, { 'X-Forwarded-For': randomIp() }),
  );
}

const googleUser = (uid: string) => ({
  email: `${uid.toLowerCase()}@gmail.test`,
  email_verified: true,
  name: 'Gina Google',
  picture: 'https://images.test/gina.png',
});

describe('valid tokens', () => {
  test('a first Google sign-in with a verified email creates a verified customer and a session', async () => {
    const token = await idToken('googleUid1', { claims: googleUser('googleUid1') });
    const response = await signIn(token);
    expect(response.status).toBe(200);
    const body = await bodyOf(response);
    expect(body.user).toMatchObject({
      uid: 'googleUid1',
      email: 'googleuid1@gmail.test',
      name: 'Gina Google',
      image: 'https://images.test/gina.png',
      role: 'customer',
      emailVerified: true,
    });
    expect(response.headers.get('set-cookie')).toMatch(/skyport_session=/);
    const me = await app.request('/api/auth/me', {
      headers: { Authorization: `Bearer ${body.token}` },
    });
    expect((await bodyOf(me)).user.uid).toBe('googleUid1');
  });

  test('signing in again maps to the same user (no duplicate)', async () => {
    const token = await idToken('googleUid1', { claims: googleUser('googleUid1') });
    const first = await bodyOf(signIn(token));
    const second = await bodyOf(
      signIn(await idToken('googleUid1', { claims: googleUser('googleUid1') })),
    );
    expect(second.user.id).toBe(first.user.id);
    expect(await sql`SELECT 1 FROM users WHERE uid = 'googleUid1'`).toHaveLength(1);
  });

  test('a verified email of an existing local account signs into that account', async () => {
    const token = await idToken('googleUid2', {
      claims: { email: actors.customer.email, email_verified: true },
    });
    const response = await signIn(token);
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).user.id).toBe(actors.customer.user!.id);
  });

  test('the key set is fetched once and cached', async () => {
    const before = jwksRequests;
    for (let i = 0; i < 3; i++)
      await signIn(await idToken(`cacheUid${i}`, { claims: googleUser(`cacheUid${i}`) }));
    expect(jwksRequests - before).toBe(0);
  });
});

describe('refused tokens write nothing', () => {
  test.each<[string, () => Promise<string>]>([
    ['expired', () => idToken('badUid1', { expiresIn: -60, claims: googleUser('badUid1') })],
    [
      'signed by another key under the same kid',
      () => idToken('badUid2', { key: strangerKey, claims: googleUser('badUid2') }),
    ],
    [
      'for another project (audience)',
      () => idToken('badUid3', { audience: 'someone-else', claims: googleUser('badUid3') }),
    ],
    [
      'from another issuer',
      () => idToken('badUid4', { issuer: 'https://evil.example', claims: googleUser('badUid4') }),
    ],
    [
      'with an unknown key id',
      () => idToken('badUid5', { kid: 'key-404', claims: googleUser('badUid5') }),
    ],
    [
      'authenticated in the future',
      () =>
        idToken('badUid6', {
          claims: { ...googleUser('badUid6'), auth_time: Math.floor(Date.now() / 1000) + 3600 },
        }),
    ],
    [
      'unsigned (alg none)',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', kid: 'key-1' })).toString(
          'base64url',
        );
        const now = Math.floor(Date.now() / 1000);
        const payload = Buffer.from(
          JSON.stringify({
            sub: 'badUid7',
            aud: PROJECT,
            iss: `https://securetoken.google.com/${PROJECT}`,
            iat: now,
            exp: now + 60,
            auth_time: now,
            ...googleUser('badUid7'),
          }),
        ).toString('base64url');
        return `${header}.${payload}.AAAA`;
      },
    ],
    [
      'tampered payload',
      async () => {
        const [header, , signature] = (
          await idToken('badUid8', { claims: googleUser('badUid8') })
        ).split('.');
        const forged = Buffer.from(JSON.stringify({ sub: 'admin', aud: PROJECT })).toString(
          'base64url',
        );
        return `${header}.${forged}.${signature}`;
      },
    ],
  ])('%s → 401', async (_label, make) => {
    const token = await make();
    const before = await snapshot(sql);
    const response = await signIn(token);
    expect(response.status).toBe(401);
    expect(await bodyOf(response)).toMatchObject({
      code: 'unauthenticated',
      message: 'Invalid identity token',
    });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await snapshot(sql)).toEqual(before);
  });

  test('an unverified email never takes over an existing local account', async () => {
    const before = await snapshot(sql);
    const token = await idToken('attackerUid', {
      claims: { email: actors.superAdmin.email, email_verified: false },
    });
    const response = await signIn(token);
    expect(response.status).toBe(403);
    expect(await snapshot(sql)).toEqual(before);
  });

  test('a disabled account cannot sign in through Firebase either', async () => {
    const user = await insertUser(sql, { withPassword: false });
    await sql`UPDATE users SET uid = 'disabledUid', disabled = true WHERE id = ${user.id}`;
    const response = await signIn(
      await idToken('disabledUid', { claims: { email: user.email, email_verified: true } }),
    );
    expect(response.status).toBe(403);
  });
});

describe('PUT /user/verificateEmail with the Firebase adapter', () => {
  test('marks the caller verified only with a fresh token proving its own verified email', async () => {
    const unverified = await bodyOf(
      signIn(
        await idToken('lateUid', { claims: { email: 'late@gmail.test', email_verified: false } }),
      ),
    );
    expect(unverified.user.emailVerified).toBe(false);
    const auth = { Authorization: `Bearer ${unverified.token}` };
    const verificate = (body: unknown) =>
      app.request('/api/user/verificateEmail', jsonRequest('PUT', body, auth));

    expect((await verificate({ email: 'late@gmail.test' })).status).toBe(403);
    const stillUnverified = await idToken('lateUid', {
      claims: { email: 'late@gmail.test', email_verified: false },
    });
    expect((await verificate({ email: 'late@gmail.test', idToken: stillUnverified })).status).toBe(
      403,
    );
    const someoneElse = await idToken('otherUid', {
      claims: { email: 'late@gmail.test', email_verified: true },
    });
    expect((await verificate({ email: 'late@gmail.test', idToken: someoneElse })).status).toBe(403);
    expect((await verificate({ email: actors.customer.email })).status).toBe(403);
    const expiredProof = await idToken('lateUid', {
      expiresIn: -60,
      claims: { email: 'late@gmail.test', email_verified: true },
    });
    // An invalid proof is refused (403) without signing the caller out.
    expect((await verificate({ email: 'late@gmail.test', idToken: expiredProof })).status).toBe(
      403,
    );
    expect((await app.request('/api/auth/me', { headers: auth })).status).toBe(200);

    const proof = await idToken('lateUid', {
      claims: { email: 'late@gmail.test', email_verified: true },
    });
    const ok = await verificate({ email: 'late@gmail.test', idToken: proof });
    expect(ok.status).toBe(200);
    expect((await bodyOf(ok)).emailVerified).toBe(true);
  });
});
