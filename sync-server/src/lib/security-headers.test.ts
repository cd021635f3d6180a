import { randomUUID } from 'node:crypto';
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buyerWithCart, startCheckout } from '../features/checkout/testing.ts';
import { createTestApp, createTestHarness } from '../test/harness.ts';
import { HSTS, inlineScriptHashes } from './security-headers.ts';

const { sql, actors, app: apiOnly } = await createTestHarness({ actors: true });

// A small built PWA: an index.html with an inline script (like the theme script and the loader
// of the real build) and one hashed asset.
const THEME_SCRIPT = "document.documentElement.setAttribute('data-theme', 'dark');";
// Its base64 SHA-256, computed independently (`openssl dgst -sha256 -binary | base64`).
const themeHash = "'sha256-LVO1Ji3GuhsD9i0YThnx/7XhVdojB23g/8CiV8zvuCI='";
let publicDir = '';

beforeAll(async () => {
  publicDir = await mkdtemp(path.join(tmpdir(), 'skyport-public-'));
  await mkdir(path.join(publicDir, 'assets'));
  await writeFile(
    path.join(publicDir, 'index.html'),
    `<!doctype html><html><head><title>Skyport</title><script>${THEME_SCRIPT}</script>
<script type="module" crossorigin src="/assets/app-abc.js"></script></head>
<body><div id="root"></div></body></html>`,
  );
  await writeFile(path.join(publicDir, 'assets', 'app-abc.js'), 'console.log("app");');
  await writeFile(path.join(publicDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
});

afterAll(async () => {
  await rm(publicDir, { recursive: true, force: true });
});

function app(trustProxy = false) {
  return createTestApp(sql, { identity: { trustProxy }, publicDir }).app;
}

/** The directives of a CSP header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) result.set(name, sources);
  }
  return result;
}

function expectSecurityHeaders(response: Response) {
  const csp = directives(response.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toContain("'self'");
  expect(csp.get('script-src')).toContain(themeHash);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  const permissions = response.headers.get('permissions-policy') ?? '';
  // The camera for this origin only: /verify-ticket scans QR codes (issue 17).
  expect(permissions).toContain('camera=(self)');
  expect(permissions).toContain('microphone=()');
  expect(permissions).toContain('geolocation=()');
  expect(permissions).toContain('payment=(self "https://js.stripe.com")');
  expect(response.headers.get('x-powered-by')).toBeNull();
}

describe('every answer carries the security headers', () => {
  test('the HTML shell, on / and on a client route', async () => {
    for (const url of ['/', '/flights/some-flight']) {
      const response = await app().request(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain(THEME_SCRIPT);
      expectSecurityHeaders(response);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  test('a hashed asset, cached for good', async () => {
    const response = await app().request('/assets/app-abc.js');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('console.log("app");');
    expectSecurityHeaders(response);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  test('an API JSON answer', async () => {
    const response = await app().request('/api/flights');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expectSecurityHeaders(response);
  });

  test('API error answers (401, 400)', async () => {
    const unauthenticated = await app().request('/api/auth/me');
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ code: 'unauthenticated' });
    expectSecurityHeaders(unauthenticated);

    const malformed = await app().request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://localhost' },
      body: '{not json',
    });
    expect(malformed.status).toBe(400);
    expectSecurityHeaders(malformed);
  });

  test('404s: an unknown API route and a POST to a page', async () => {
    const api = await app().request('/api/no-such-route');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    expectSecurityHeaders(api);

    const page = await app().request('/somewhere', { method: 'POST' });
    expect(page.status).toBe(404);
    expectSecurityHeaders(page);
  });

  test('without a built PWA the API answers still carry them (no hashes to allow)', async () => {
    const response = await apiOnly.request('/api/no-such-route');
    expect(response.status).toBe(404);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')?.some((source) => source.startsWith("'sha256-"))).toBe(false);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('the Content-Security-Policy', () => {
  test('allows the inline scripts of the served index.html by hash, and Stripe, PayPal and Google', async () => {
    const response = await app().request('/');
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual([
      "'self'",
      themeHash,
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://www.paypal.com',
      'https://apis.google.com',
    ]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      'https://api.stripe.com',
      'https://www.paypal.com',
      'https://www.sandbox.paypal.com',
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
    ]);
    expect(csp.get('frame-src')).toEqual([
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
      'https://www.paypal.com',
      'https://www.sandbox.paypal.com',
      'https://*.firebaseapp.com',
    ]);
    expect(csp.get('worker-src')).toEqual(["'self'"]);
    expect(csp.get('manifest-src')).toEqual(["'self'"]);
  });

  test('follows a new build of index.html while the server runs', async () => {
    const running = app();
    const before = directives((await running.request('/')).headers.get('content-security-policy'));
    expect(before.get('script-src')).toContain(themeHash);

    const indexHtml = path.join(publicDir, 'index.html');
    const original = `<!doctype html><html><head><script>${THEME_SCRIPT}</script></head></html>`;
    const rebuilt = '<!doctype html><html><head><script>alert(1)</script></head></html>';
    await writeFile(indexHtml, rebuilt);
    // A different mtime even on a coarse clock; the hashes are checked at most once a second, so
    // the new ones come within a second or so (waited for, not slept on).
    const later = new Date(Date.now() + 5_000);
    await utimes(indexHtml, later, later);
    try {
      const scriptSrc = async () =>
        directives((await running.request('/')).headers.get('content-security-policy')).get(
          'script-src',
        );
      await expect
        .poll(scriptSrc, { timeout: 10_000 })
        .toContain("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
      expect(await scriptSrc()).not.toContain(themeHash);
    } finally {
      await writeFile(
        indexHtml,
        original.replace(
          '</head>',
          '<script type="module" src="/assets/app-abc.js"></script></head>',
        ),
      );
    }
  });

  test('the service worker may fetch the https images the pages show', async () => {
    const response = await app().request('/sw.js');
    expect(response.status).toBe(200);
    const csp = directives(response.headers.get('content-security-policy'));
    expect(csp.get('connect-src')).toEqual(["'self'", 'https:']);
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('inline script hashes', () => {
  test('hash each inline script as the browser parses it, and skip scripts with a src', () => {
    expect(
      inlineScriptHashes(
        '<script>alert(1)</script><SCRIPT type="module" src="/a.js"></SCRIPT>' +
          '<script>a\r\nb</script><script>alert(1)</script>',
      ),
    ).toEqual([
      "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='",
      // CR LF becomes LF in the parsed text: the hash of "a\nb".
      "'sha256-fhj3NzEbLcOy8mndeDlrA1HxT7Zu+oefdoyyMYGIPHg='",
    ]);
  });
});

describe('Strict-Transport-Security', () => {
  test('is sent over HTTPS', async () => {
    const response = await app().request('https://skyport.test/api/flights');
    expect(response.headers.get('strict-transport-security')).toBe(HSTS);
    expect(HSTS).toBe('max-age=31536000; includeSubDomains');
  });

  test('is sent behind a trusted proxy that says HTTPS', async () => {
    const proxied = await app(true).request('/', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(proxied.headers.get('strict-transport-security')).toBe(HSTS);
    const error = await app(true).request('/api/auth/me', {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(error.status).toBe(401);
    expect(error.headers.get('strict-transport-security')).toBe(HSTS);
  });

  test('is not sent over plain HTTP, nor on an untrusted X-Forwarded-Proto', async () => {
    const plain = await app(true).request('/');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const proxiedHttp = await app(true).request('/', { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(proxiedHttp.headers.get('strict-transport-security')).toBeNull();
    const untrusted = await app(false).request('/', { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('hashed assets', () => {
  test('an unknown /assets/ file is a 404, never the page with the immutable cache', async () => {
    const response = await app().request('/assets/x.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(await response.text()).not.toContain('<div id="root">');
    const cacheControl = response.headers.get('cache-control') ?? '';
    expect(cacheControl).not.toMatch(/immutable|max-age=[1-9]/);
    expect(cacheControl).toBe('no-store');
    expectSecurityHeaders(response);
  });
});

describe("the test wallet's approval page (HTML the server renders itself)", () => {
  test('carries the headers and holds nothing the policy refuses', async () => {
    const buyer = await buyerWithCart(sql, actors.airline.airlineId!, {
      priceCents: 45_00,
      amount: 1,
    });
    const shop = app();
    const start = await shop.request(
      '/api/checkout',
      startCheckout(buyer.headers, { method: 'wallet', amount: buyer.total }, randomUUID()),
    );
    expect(start.status).toBe(202);
    const { approvalUrl } = (await start.json()) as { approvalUrl: string };

    const page = await shop.request(approvalUrl);
    expect(page.status).toBe(200);
    expectSecurityHeaders(page);
    const html = await page.text();
    expect(html).toContain('Approve payment');
    // No script of any kind (none would be allowed: its hash is not in the policy), no inline
    // event handler; its inline <style> and style attributes are allowed by style-src.
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    // Its forms post to our own origin (form-action 'self').
    const pageUrl = new URL(approvalUrl, 'http://localhost');
    const actions = [...html.matchAll(/action="([^"]+)"/g)].map((m) => new URL(m[1]!, pageUrl));
    expect(actions).toHaveLength(2);
    for (const action of actions) expect(action.origin).toBe(pageUrl.origin);
  });
});
