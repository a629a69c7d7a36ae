// Import cycles between files, type-only imports included (ESLint's import/no-cycle skips those:
// a type-only cycle still ties two modules together). Nx's module boundaries keep projects apart;
// this keeps files within them in order. Run by `npm run lint`.
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files import each other, directly or through others: move what both need to a third file.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '(^|/)dist/', '(^|/)\\.data/'] },
  },
};
