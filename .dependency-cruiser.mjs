// Import cycles, checked by `pnpm run lint` (depcruise after ESLint): none anywhere in the
// workspace. Type-only imports count too (tsPreCompilationDeps): a cycle of types still ties two
// modules together. ESLint's import-x/no-cycle skips them, and so would have missed all three
// cycles this found at first (app.ts with two route files, shared's catalogue query rules with
// their schema): each had a type-only side. The import directions themselves are ESLint's
// (boundaries/dependencies in eslint.config.js, docs/architecture.md §2.1).

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle: move what both modules need to a module of its own below them (types included), so that imports go one way.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: '(^|/)(node_modules|dist|dev-dist|coverage|\\.bench-build|bench-results|\\.data|playwright-report|test-results|blob-report)/',
    },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
