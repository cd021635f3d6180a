/// <reference types="node" />
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { ApiError } from '../../api/api-client.ts';
import { getSession, loadSession, setSessionUser } from '../../app/session.ts';
import { isPopupDismissed, readFirebaseWebConfig, signInWithGoogle } from './firebase-sign-in.ts';

/**
 * Google sign-in against the real product: sync-server's `src/main.ts` with the Firebase adapter
 * on (FIREBASE_PROJECT_ID) and its key set pointed at a localhost JWKS of our own, so the ID
 * tokens signed here are checked exactly as Google's would be. Only the Firebase popup is stood
 * in for; the request, the server's verification, its session and the app's session store are real.
 */

const PROJECT = 'skyport-pwa-test';
const here = path.dirname(fileURLToPath(import.meta.url));
const syncServerDir = path.resolve(here, '../../../../sync-server');

const googleKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });

let jwks: Server;
let product: ChildProcess | undefined;
let productOutput = '';
let origin = '';
let cleanUp: () => Promise<void> = async () => {};

const networkFetch = globalThis.fetch;
/** What the "browser" sent: method, path and parsed JSON body. */
let sent: { method: string; path: string; body: unknown }[] = [];
let cookies = new Map<string, string>();

beforeAll(async () => {
  const publicJwk = {
    ...googleKey.publicKey.export({ format: 'jwk' }),
    kid: 'key-1',
    alg: 'RS256',
    use: 'sig',
  };
  jwks = createServer((request, response) => {
    if (request.url !== '/jwks') return void response.writeHead(404).end();
    response
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ keys: [publicJwk] }));
  });
  const jwksPort = await listen(jwks);

  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'never',
    FIREBASE_PROJECT_ID: PROJECT,
    FIREBASE_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks`,
  };
  // As pwa/e2e/support/start-server.mjs: a fresh database on DATABASE_URL's server, else the
  // product's embedded PostgreSQL in a fresh folder.
  if (process.env.DATABASE_URL) {
    const database = `skyport_pwa_firebase_${randomBytes(4).toString('hex')}`;
    const admin = new URL(process.env.DATABASE_URL);
    const psql = (statement: string) =>
      execFileSync('psql', [admin.toString(), '-v', 'ON_ERROR_STOP=1', '-c', statement], {
        stdio: 'pipe',
      });
    psql(`CREATE DATABASE ${database}`);
    const url = new URL(admin);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
    cleanUp = async () => void psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'skyport-firebase-'));
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its folder.
    await chmod(dataDir, 0o755);
    env.EMBEDDED_PG_DIR = path.join(dataDir, 'pg');
    env.EMBEDDED_PG_PORT = String(await freePort());
    delete env.DATABASE_URL;
    cleanUp = () => rm(dataDir, { recursive: true, force: true });
  }

  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: syncServerDir,
    env,
  });
  product = child;
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      productOutput += chunk.toString();
      if (productOutput.includes('Skyport is running')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (productOutput += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${productOutput}`)));
  });

  // The page's fetch: relative URLs go to the page's origin, with its cookies and an Origin header.
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), origin);
    const method = init.method ?? 'GET';
    const headers = new Headers(init.headers);
    if (cookies.size > 0)
      headers.set('Cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (method !== 'GET' && method !== 'HEAD') headers.set('Origin', origin);
    sent.push({
      method,
      path: url.pathname,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const response = await networkFetch(url, { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const separator = pair.indexOf('=');
      cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    return response;
  });
});

afterAll(async () => {
  vi.unstubAllGlobals();
  if (product && product.exitCode === null) {
    const exited = new Promise((resolve) => product?.once('exit', resolve));
    product.kill('SIGTERM');
    await exited;
  }
  await cleanUp();
  await new Promise((resolve) => jwks?.close(resolve));
});

beforeEach(() => {
  setSessionUser(null);
  sent = [];
  cookies = new Map();
});

test('a Google sign-in sends the ID token to the server, whose session becomes the app session', async () => {
  const uid = newUid();
  const idToken = firebaseIdToken(uid, {
    email: `${uid}@gmail.test`,
    email_verified: true,
    name: 'Gina Google',
  });

  const user = await signInWithGoogle({ getIdToken: async () => idToken, setUser: setSessionUser });

  expect(sent).toEqual([{ method: 'POST', path: '/api/auth/firebase', body: { idToken } }]);
  expect(user).toMatchObject({
    uid,
    email: `${uid.toLowerCase()}@gmail.test`,
    name: 'Gina Google',
    role: 'customer',
    emailVerified: true,
  });
  expect(getSession()).toEqual({ status: 'ready', user });
  // The server set its session cookie: asking it who is signed in answers the same user.
  expect(cookies.get('skyport_session')).toBeTruthy();
  expect((await loadSession())?.id).toBe(user?.id);
});

test('signing in again with Google is the same user', async () => {
  const uid = newUid();
  const claims = { email: `${uid}@gmail.test`, email_verified: true };
  const first = await signInWithGoogle({
    getIdToken: async () => firebaseIdToken(uid, claims),
    setUser: setSessionUser,
  });
  cookies = new Map();
  const second = await signInWithGoogle({
    getIdToken: async () => firebaseIdToken(uid, claims),
    setUser: setSessionUser,
  });
  expect(second?.id).toBe(first?.id);
});

test('a popup the user closed sends nothing and leaves the session as it was', async () => {
  const user = await signInWithGoogle({ getIdToken: async () => null, setUser: setSessionUser });
  expect(user).toBeNull();
  expect(sent).toEqual([]);
  expect(getSession()).toEqual({ status: 'ready', user: null });
});

test('a token the server refuses (not signed by Google) fails with 401 and signs nobody in', async () => {
  const uid = newUid();
  const forged = firebaseIdToken(
    uid,
    { email: `${uid}@gmail.test`, email_verified: true },
    strangerKey.privateKey,
  );
  const failure = await signInWithGoogle({
    getIdToken: async () => forged,
    setUser: setSessionUser,
  }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({ status: 401 });
  expect(getSession()).toEqual({ status: 'ready', user: null });
  expect(cookies.has('skyport_session')).toBe(false);
});

test('a failure of the popup itself reaches the caller', async () => {
  const blocked = Object.assign(new Error('Firebase: Error (auth/popup-blocked).'), {
    code: 'auth/popup-blocked',
  });
  await expect(
    signInWithGoogle({ getIdToken: () => Promise.reject(blocked), setUser: setSessionUser }),
  ).rejects.toBe(blocked);
  expect(sent).toEqual([]);
});

test('only a closed or abandoned popup counts as dismissed', () => {
  expect(isPopupDismissed({ code: 'auth/popup-closed-by-user' })).toBe(true);
  expect(isPopupDismissed({ code: 'auth/cancelled-popup-request' })).toBe(true);
  expect(isPopupDismissed({ code: 'auth/user-cancelled' })).toBe(true);
  expect(isPopupDismissed({ code: 'auth/popup-blocked' })).toBe(false);
  expect(isPopupDismissed(new Error('network'))).toBe(false);
  expect(isPopupDismissed(null)).toBe(false);
});

test('the web config needs an API key and an auth domain; blank values count as unset', () => {
  expect(readFirebaseWebConfig({})).toBeNull();
  expect(
    readFirebaseWebConfig({ VITE_FIREBASE_API_KEY: 'key', VITE_FIREBASE_AUTH_DOMAIN: ' ' }),
  ).toBeNull();
  expect(
    readFirebaseWebConfig({
      VITE_FIREBASE_API_KEY: 'key',
      VITE_FIREBASE_AUTH_DOMAIN: 'app.firebaseapp.com',
    }),
  ).toEqual({
    apiKey: 'key',
    authDomain: 'app.firebaseapp.com',
  });
  expect(
    readFirebaseWebConfig({
      VITE_FIREBASE_API_KEY: 'key',
      VITE_FIREBASE_AUTH_DOMAIN: 'app.firebaseapp.com',
      VITE_FIREBASE_PROJECT_ID: 'app',
      VITE_FIREBASE_APP_ID: '',
    }),
  ).toEqual({ apiKey: 'key', authDomain: 'app.firebaseapp.com', projectId: 'app' });
});

function newUid(): string {
  return `google${randomBytes(6).toString('hex')}`;
}

/** An ID token as Firebase signs one (RS256, kid, aud/iss of the project, auth_time). */
function firebaseIdToken(
  uid: string,
  claims: Record<string, unknown>,
  key: KeyObject = googleKey.privateKey,
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', kid: 'key-1', typ: 'JWT' };
  const payload = {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: uid,
    iat: now - 5,
    auth_time: now - 5,
    exp: now + 3600,
    firebase: { sign_in_provider: 'google.com' },
    ...claims,
  };
  const signed = `${base64url(header)}.${base64url(payload)}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), key).toString('base64url')}`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Listens on a free port of 127.0.0.1 and returns it. */
function listen(server: NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      return typeof address === 'object' && address
        ? resolve(address.port)
        : reject(new Error('no port'));
    });
  });
}

/** A port that was free on 127.0.0.1 a moment ago. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
