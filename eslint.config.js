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

/** The parts of docs/architecture.md §2.1; the first pattern that matches a file names its part. */
const elements = [
  { type: 'shared', pattern: 'shared' },
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

/** Between the three packages: everything, tests included, keeps these. */
const packagePolicies = [
  {
    from: { element: { type: 'shared' } },
    disallow: { to: { element: { types: { anyOf: ['server', ...PWA_TYPES] } } } },
    message: 'shared/ imports nothing of ours: not from sync-server/ nor pwa/ (§1.1).',
  },
  {
    from: { element: { type: 'server' } },
    disallow: { to: { element: { types: { anyOf: PWA_TYPES } } } },
    message: 'sync-server/ never imports pwa/: what both need goes to shared/ (§1.1).',
  },
  {
    from: { element: { types: { anyOf: PWA_TYPES } } },
    disallow: { to: { element: { type: 'server' } } },
    message: 'pwa/ never imports sync-server/: what both need goes to shared/ (§1.1).',
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
      'A feature does not import another feature: move what both need below the features (ui/, data/, api/…), or let app/ pass it in (§1.1).',
  },
  {
    from: {
      element: {
        types: { anyOf: ['pwa-feature', 'pwa-ui', 'pwa-db', 'pwa-sync', 'pwa-data', 'pwa-api'] },
      },
    },
    disallow: { to: { element: { type: 'pwa-app' } } },
    message:
      'Only app/ imports app/: features and the layers below them get what they need passed in (§1.1).',
  },
  {
    from: {
      element: { types: { anyOf: ['pwa-ui', 'pwa-db', 'pwa-sync', 'pwa-data', 'pwa-api'] } },
    },
    disallow: { to: { element: { type: 'pwa-feature' } } },
    message:
      'The layers below the features (ui/, db/, sync/, data/, api/) import no feature (§1.1).',
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
      'lib/ is below every other part of pwa/src (all of them import it): it imports none of them (§1.1).',
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
        { default: 'allow', policies: [...packagePolicies, ...pwaLayerPolicies] },
      ],
    },
  },
  {
    files: TEST_FILES,
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: packagePolicies }],
    },
  },
]);
