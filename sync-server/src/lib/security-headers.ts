import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

type SecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/**
 * Where the PWA loads things from, and why: the Content-Security-Policy allows these and nothing
 * else. Checked against what the product really loads (pwa/src, the built pwa/dist, the server's
 * own HTML pages); add a source here only with the feature that needs it.
 *
 * Not listed, on purpose:
 * - *.paypal.com, *.paypalobjects.com, *.venmo.com (PayPal's generic advice): the PWA loads the
 *   JavaScript SDK with the PayPal buttons only (no Venmo, no card fields), so only its hosts
 *   below are allowed. PayPal's approval window is a popup, which CSP does not govern.
 * - https://www.gstatic.com, https://accounts.google.com, https://*.googleapis.com: Firebase's
 *   Google sign-in is bundled (no SDK from a CDN), uses no reCAPTCHA and opens Google's account
 *   page in a popup window (not a frame); its only network calls go to the two hosts below.
 *   www.gstatic.com would also hand any injected markup a host full of script gadgets.
 * - 'unsafe-inline' / 'unsafe-eval' for scripts: the only inline scripts are index.html's, and
 *   they are allowed by their hash. The one string evaluation in the bundle is Zod's probe for a
 *   JIT (`new Function('')`, caught), which index.html switches off (`jitless`) so that it raises
 *   no violation; without eval Zod parses the same, without compiled parsers.
 */
const STRIPE = {
  /** Stripe.js itself (`loadStripe` in stripe-card-field.tsx adds a <script> from here). */
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  /** The card element's iframes, and 3-D Secure challenges (hooks.stripe.com). */
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  /** Stripe.js creates the payment method from the page (`stripe.createPaymentMethod`). */
  connect: ['https://api.stripe.com'],
};
const PAYPAL = {
  /**
   * PayPal's JavaScript SDK (`PayPalScriptProvider` in pwa/src/features/checkout/components/
   * paypal-buttons.tsx adds a <script> from https://www.paypal.com/sdk/js), only on /payment and
   * only when the server runs PayPal wallets.
   */
  script: ['https://www.paypal.com'],
  /** The buttons are PayPal's frames: live, or the sandbox for a sandbox client id. */
  frame: ['https://www.paypal.com', 'https://www.sandbox.paypal.com'],
  /** The SDK's own calls from the page (its logger, the buttons' set-up). */
  connect: ['https://www.paypal.com', 'https://www.sandbox.paypal.com'],
};
const FIREBASE = {
  /** Google's gapi loader, which `signInWithPopup` uses to set up its helper iframe. */
  script: ['https://apis.google.com'],
  /** That helper iframe, `https://<project>.firebaseapp.com/__/auth/iframe` (the authDomain). */
  frame: ['https://*.firebaseapp.com'],
  /** Firebase Auth's REST calls (sign-in, then the ID token the server verifies). */
  connect: ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com'],
};

/**
 * The policy of every answer. The inline scripts of index.html (the theme script, and the loader
 * the build writes to start the app after the first paint, pwa/vite.config.ts) come in as hashes.
 */
function documentPolicy(
  scriptHashes: readonly string[],
): NonNullable<SecureHeadersOptions['contentSecurityPolicy']> {
  return {
    defaultSrc: ["'self'"],
    // The app's own bundle (/assets/*, loaded by index.html's loader), index.html's inline scripts
    // by hash, Stripe.js and PayPal's SDK on the payment page and Google's loader for Google
    // sign-in.
    scriptSrc: ["'self'", ...scriptHashes, ...STRIPE.script, ...PAYPAL.script, ...FIREBASE.script],
    // React style attributes, ApexCharts' injected styles, index.html's <style>, and the server's
    // test-wallet page (an inline <style>, no script): inline styles cannot run code.
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Flags and logos are our own files; an airline's logo may be any https image; the
    // stylesheet and the charts use data: URIs; blob: for images made in the page.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    // The API, sync (fetch and the event stream) on our origin; Stripe, PayPal and Firebase Auth.
    connectSrc: ["'self'", ...STRIPE.connect, ...PAYPAL.connect, ...FIREBASE.connect],
    frameSrc: [...STRIPE.frame, ...PAYPAL.frame, ...FIREBASE.frame],
    // The service worker (/sw.js, workbox) is ours; so is the web app manifest.
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    // The login and payment forms post to the API; the test wallet's page posts to itself.
    formAction: ["'self'"],
    // Nobody frames Skyport (clickjacking); X-Frame-Options says the same to older browsers.
    frameAncestors: ["'none'"],
  };
}

/**
 * The service worker's own policy (a worker's CSP is the one its script is served with). Its
 * runtime cache fetches the images the pages show, and an airline's logo may be any https image
 * (img-src above), so `fetch()` in the worker needs https: where pages only need their hosts.
 */
function serviceWorkerPolicy(
  scriptHashes: readonly string[],
): NonNullable<SecureHeadersOptions['contentSecurityPolicy']> {
  return { ...documentPolicy(scriptHashes), connectSrc: ["'self'", 'https:'] };
}

/** Features no page of Skyport uses are switched off for the page and every frame in it. */
const PERMISSIONS_POLICY = {
  // The ticket verification page scans QR codes with the camera (issue 17); no frame may.
  camera: ['self'],
  microphone: [],
  geolocation: [],
  // The Payment Request API, for Stripe's wallet buttons inside Stripe's frame.
  payment: ['self', 'https://js.stripe.com'],
  usb: [],
  midi: [],
  accelerometer: [],
  gyroscope: [],
  magnetometer: [],
  displayCapture: [],
} satisfies SecureHeadersOptions['permissionsPolicy'];

export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * `sha256-…` sources of the inline scripts of an HTML page, as CSP wants them: the base64 SHA-256
 * of each script's text exactly as the browser sees it (after the HTML parser turns CR LF into
 * LF). Scripts with a `src` have no inline text to allow.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const [, attributes = '', text = ''] = match;
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const normalised = text.replace(/\r\n?/g, '\n');
    hashes.add(`'sha256-${createHash('sha256').update(normalised, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/**
 * The hashes of the index.html being served: read at start, and read again when the file changes
 * (a new build into the same folder while the server runs), checked at most once a second.
 */
function servedShellHashes(indexHtml: string): () => readonly string[] {
  let stamp = '';
  let hashes: readonly string[] = [];
  let checkedAt = 0;
  const read = () => {
    try {
      const stats = statSync(indexHtml);
      const next = `${stats.mtimeMs}:${stats.size}`;
      if (next === stamp) return;
      hashes = inlineScriptHashes(readFileSync(indexHtml, 'utf8'));
      stamp = next;
    } catch {
      // No index.html (yet): nothing inline to allow.
      hashes = [];
      stamp = '';
    }
  };
  read();
  return () => {
    const now = Date.now();
    if (now - checkedAt >= 1000) {
      checkedAt = now;
      read();
    }
    return hashes;
  };
}

/** The request reached us over HTTPS: directly, or through a trusted proxy that says so. */
function isHttps(c: Context, trustProxy: boolean): boolean {
  // A request's URL is absolute with its scheme in lower case (WHATWG URL, as @hono/node-server
  // builds it): no URL object per answer needed to read it.
  if (c.req.url.startsWith('https:')) return true;
  if (!trustProxy) return false;
  // As with X-Forwarded-For (identity/middleware.ts), the last entry is our proxy's.
  const proto = c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase();
  return proto === 'https';
}

export interface SecurityHeadersOptions {
  /** The built PWA being served: the inline scripts of its index.html are allowed by hash. */
  publicDir?: string;
  /** Believe `X-Forwarded-Proto` (the server runs behind a proxy that sets it). */
  trustProxy: boolean;
  /** Path of the service worker script, which gets the worker policy. Default `/sw.js`. */
  serviceWorkerPath?: string;
}

/** The inline script hashes of no page (no PWA served): one array, so its identity never changes. */
const NO_HASHES: readonly string[] = [];

/**
 * Browser security headers on every answer (pages, static files, API JSON, errors and 404s):
 * Content-Security-Policy, X-Content-Type-Options, Referrer-Policy, X-Frame-Options,
 * Permissions-Policy, Cross-Origin-Opener/Resource-Policy (Hono's `secureHeaders`), and
 * Strict-Transport-Security when the request came over HTTPS. Mount it first on the root app.
 */
export function securityHeaders(options: SecurityHeadersOptions): MiddlewareHandler {
  const hashes = options.publicDir
    ? servedShellHashes(path.join(options.publicDir, 'index.html'))
    : () => NO_HASHES;
  const serviceWorkerPath = options.serviceWorkerPath ?? '/sw.js';
  const build = (contentSecurityPolicy: SecureHeadersOptions['contentSecurityPolicy']) =>
    secureHeaders({
      contentSecurityPolicy,
      xContentTypeOptions: 'nosniff',
      referrerPolicy: 'strict-origin-when-cross-origin',
      xFrameOptions: 'DENY',
      permissionsPolicy: PERMISSIONS_POLICY,
      // Google sign-in's popup must be able to talk back to the page that opened it.
      crossOriginOpenerPolicy: 'same-origin-allow-popups',
      crossOriginResourcePolicy: 'same-origin',
      // Cross-origin isolation would cut off Stripe's and Firebase's frames.
      crossOriginEmbedderPolicy: false,
      // Set below, only over HTTPS.
      strictTransportSecurity: false,
    });
  // One pair of middlewares per set of hashes (a new build brings a new set). The set is a new
  // array only when index.html was read again: compared by identity first, so that an answer
  // costs no join, and by content when it was read again (a rewrite with the same scripts).
  let current:
    | { shell: readonly string[]; key: string; page: MiddlewareHandler; worker: MiddlewareHandler }
    | undefined;
  const handlers = () => {
    const shell = hashes();
    if (current?.shell === shell) return current;
    const key = shell.join(' ');
    if (current?.key !== key) {
      current = {
        shell,
        key,
        page: build(documentPolicy(shell)),
        worker: build(serviceWorkerPolicy(shell)),
      };
    } else current.shell = shell;
    return current;
  };
  return async (c, next) => {
    const { page, worker } = handlers();
    await (c.req.path === serviceWorkerPath ? worker : page)(c, next);
    if (isHttps(c, options.trustProxy)) c.res.headers.set('Strict-Transport-Security', HSTS);
  };
}
