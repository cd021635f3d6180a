// ESLint for the whole workspace (decision 012): the recommended JavaScript and typescript-eslint
// rules (not the type-checked ones: they would make lint as slow as tsc), the React hooks rules for
// pwa/, and the import directions of docs/architecture.md §2.1 as boundaries/dependencies.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TEST_FILES = ['**/*.test.{ts,tsx}'];
/** Modules that only tests import (a peer that plays PayPal, request helpers). */
const TEST_HELPERS = ['sync-server/src/**/testing.ts', 'sync-server/src/**/testing/**'];
/**
 * sync-server's test support besides TEST_HELPERS: the harness, the cluster tests' instances, the
 * sync tests' server and fixtures. Like the tests, they build the whole app (app.ts) to test it.
 */
const SERVER_TEST_SUPPORT = [
  ...TEST_HELPERS,
  'sync-server/src/test/**',
  'sync-server/src/cluster/**',
  'sync-server/src/sync/test-server.ts',
  'sync-server/src/sync/test-fixtures.ts',
];

/** The parts of docs/architecture.md §2.1; the first pattern that matches a file names its part. */
const elements = [
  { type: 'shared', pattern: 'shared' },
  { type: 'server-lib', pattern: 'sync-server/src/lib' },
  // The demo data's command line (db/seed/cli.ts), a tool on top like main.ts: not part of db/.
  { type: 'server-seed', pattern: 'sync-server/src/db/seed' },
  { type: 'server-db', pattern: 'sync-server/src/db' },
  { type: 'server-payments', pattern: 'sync-server/src/payments' },
  { type: 'server-feature', pattern: 'sync-server/src/features/*', capture: ['feature'] },
  { type: 'server-sync', pattern: 'sync-server/src/sync' },
  // The files at the top of src/: app.ts and main.ts (the top), config.ts and deps.ts (the bottom).
  { type: 'server-root', pattern: 'sync-server/src' },
  // bench/, scripts/ and the configs: entry points outside src/.
  { type: 'server', pattern: 'sync-server' },
  { type: 'pwa-app', pattern: 'pwa/src/app' },
  { type: 'pwa-feature', pattern: 'pwa/src/features/*', capture: ['feature'] },
  { type: 'pwa-ui', pattern: 'pwa/src/ui' },
  { type: 'pwa-db', pattern: 'pwa/src/db' },
  { type: 'pwa-sync', pattern: 'pwa/src/sync' },
  { type: 'pwa-data', pattern: 'pwa/src/data' },
  { type: 'pwa-api', pattern: 'pwa/src/api' },
  { type: 'pwa-lib', pattern: 'pwa/src/lib' },
  { type: 'pwa', pattern: 'pwa' },
].map((element) => ({ ...element, partialMatch: false }));

const PWA_TYPES = ['pwa', 'pwa-*'];
const SERVER_TYPES = ['server', 'server-*'];

/** Between the three packages: everything, tests included, keeps these. */
const packagePolicies = [
  {
    from: { element: { type: 'shared' } },
    disallow: { to: { element: { types: { anyOf: [...SERVER_TYPES, ...PWA_TYPES] } } } },
    message: 'shared/ imports nothing of ours: not from sync-server/ nor pwa/ (§2.1).',
  },
  {
    from: { element: { types: { anyOf: SERVER_TYPES } } },
    disallow: { to: { element: { types: { anyOf: PWA_TYPES } } } },
    message: 'sync-server/ never imports pwa/: what both need goes to shared/ (§2.1).',
  },
  {
    from: { element: { types: { anyOf: PWA_TYPES } } },
    disallow: { to: { element: { types: { anyOf: SERVER_TYPES } } } },
    message: 'pwa/ never imports sync-server/: what both need goes to shared/ (§2.1).',
  },
];

/** Inside pwa/src, for the application's own code (tests may cross them to test a whole flow). */
const pwaLayerPolicies = [
  {
    from: { element: { type: 'pwa-feature' } },
    disallow: {
      to: {
        element: {
          type: 'pwa-feature',
          captured: { feature: '!{{ from.element.captured.feature }}' },
        },
      },
    },
    message:
      'A feature does not import another feature: move what both need below the features (ui/, data/, api/…), or let app/ pass it in (§2.1).',
  },
  {
    from: {
      element: {
        types: { anyOf: ['pwa-feature', 'pwa-ui', 'pwa-db', 'pwa-sync', 'pwa-data', 'pwa-api'] },
      },
    },
    disallow: { to: { element: { type: 'pwa-app' } } },
    message:
      'Only app/ imports app/: features and the layers below them get what they need passed in (§2.1).',
  },
  {
    from: {
      element: { types: { anyOf: ['pwa-ui', 'pwa-db', 'pwa-sync', 'pwa-data', 'pwa-api'] } },
    },
    disallow: { to: { element: { type: 'pwa-feature' } } },
    message:
      'The layers below the features (ui/, db/, sync/, data/, api/) import no feature (§2.1).',
  },
  {
    from: { element: { type: 'pwa-lib' } },
    disallow: {
      to: {
        element: {
          types: {
            anyOf: [
              'pwa',
              'pwa-app',
              'pwa-feature',
              'pwa-ui',
              'pwa-db',
              'pwa-sync',
              'pwa-data',
              'pwa-api',
            ],
          },
        },
      },
    },
    message:
      'lib/ is below every other part of pwa/src (all of them import it): it imports none of them (§2.1).',
  },
];

/**
 * Inside sync-server/src, for the server's own code (tests and SERVER_TEST_SUPPORT build the whole
 * app to test it), from the bottom up: lib/, db/, config.ts and deps.ts (the dependency types the
 * parts share); payments/; features/* (which may use one another: identity's guard is everyone's);
 * sync/ (device sync, over the features' rules); app.ts, which assembles them all, and main.ts,
 * which runs it (and db/seed/, the demo data's command line). Each imports only what is below it.
 * Nothing imports app.ts but main.ts, the tests and bench/ (which runs the app to measure it), and
 * nothing imports main.ts. Import cycles are depcruise's (.dependency-cruiser.mjs).
 */
const SERVER_BASE = { element: { type: 'server-root', fileInternalPath: '{config,deps}.ts' } };
const SERVER_TOP = { element: { type: 'server-root', fileInternalPath: '{app,main}.ts' } };
const serverLayerPolicies = [
  {
    from: { element: { types: { anyOf: ['server-lib', 'server-db'] } } },
    disallow: {
      to: { element: { types: { anyOf: ['server-payments', 'server-feature', 'server-sync'] } } },
    },
    message:
      'lib/ and db/ are the bottom of sync-server/src: they import each other only, not payments/, features/ nor sync/ (§2.1).',
  },
  {
    from: { element: { types: { anyOf: ['server-lib', 'server-db'] } } },
    disallow: { to: { element: { types: { anyOf: ['server-seed', 'server-root'] } } } },
    message:
      'lib/ and db/ are the bottom of sync-server/src: they import each other only, not config.ts, deps.ts nor db/seed/ (§2.1).',
  },
  {
    from: SERVER_BASE,
    disallow: {
      to: [
        { element: { types: { anyOf: ['server-payments', 'server-feature', 'server-sync'] } } },
        { element: { type: 'server-seed' } },
      ],
    },
    message:
      'config.ts and deps.ts sit with lib/ and db/ at the bottom of sync-server/src: they import only lib/ and db/ (§2.1).',
  },
  {
    from: { element: { type: 'server-payments' } },
    disallow: {
      to: { element: { types: { anyOf: ['server-feature', 'server-sync', 'server-seed'] } } },
    },
    message:
      'payments/ is below the features: it imports lib/, db/, config.ts and deps.ts only; a feature (checkout) passes it what it needs (§2.1).',
  },
  {
    from: { element: { type: 'server-feature' } },
    disallow: { to: { element: { types: { anyOf: ['server-sync', 'server-seed'] } } } },
    message:
      'A server feature imports lib/, db/, config.ts, deps.ts, payments/ and other features, not sync/ (which is above the features) (§2.1).',
  },
  {
    from: { element: { type: 'server-sync' } },
    disallow: { to: { element: { type: 'server-seed' } } },
    message: 'sync/ imports the features and what is below them, not db/seed/ (§2.1).',
  },
  {
    from: { element: { types: { anyOf: ['server-*'] } } },
    disallow: { to: SERVER_TOP },
    message:
      'Nothing in sync-server/src imports app.ts but main.ts (tests and bench/ may), and nothing imports main.ts: app.ts assembles the parts, each gets what it needs in its deps (deps.ts) (§2.1).',
  },
  {
    from: { element: { type: 'server-root', fileInternalPath: 'main.ts' } },
    allow: { to: { element: { type: 'server-root', fileInternalPath: 'app.ts' } } },
  },
  {
    from: { element: { types: { anyOf: ['server-*'] } } },
    disallow: { to: { element: { type: 'server' } } },
    message:
      'sync-server/src imports nothing from bench/, scripts/ or the configs beside it (§2.1).',
  },
];

export default defineConfig([
  globalIgnores([
    '**/dist/',
    '**/.bench-build/',
    '**/bench-results/',
    '**/.data/',
    '**/coverage/',
    '**/playwright-report/',
    '**/test-results/',
    '**/blob-report/',
    'pwa/dev-dist/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // `const { id: _id, ...rest } = doc` is how the code leaves a field out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: [...TEST_FILES, ...TEST_HELPERS],
    rules: {
      // Tests read answers they assert on field by field; typing each one would add nothing.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['pwa/e2e/local-first/public/*.js'],
    languageOptions: { globals: globals.serviceworker },
  },
  {
    files: ['pwa/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': elements,
      // `lazy(() => import(…))` and `export … from` cross boundaries too.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      // TypeScript also accepts `../cart/data/cart` without its extension: resolve those too, or
      // such an import would cross a boundary unseen.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          // Imports inside one element too: app.ts, main.ts, config.ts and deps.ts are all files
          // of sync-server/src's top folder.
          checkInternals: true,
          policies: [...packagePolicies, ...pwaLayerPolicies, ...serverLayerPolicies],
        },
      ],
    },
  },
  {
    files: [...TEST_FILES, ...SERVER_TEST_SUPPORT],
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: packagePolicies }],
    },
  },
]);
