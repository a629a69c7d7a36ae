// Lint rules that keep the architecture honest: Nx module boundaries (apps depend on libs, libs
// never on apps, domain libs on nothing with I/O), no import cycles, no floating promises.
import nx from '@nx/eslint-plugin';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

// What a kind of project may depend on; no kind may depend on an app.
const TYPE_RULES = {
  'type:app': ['type:feature', 'type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:tool': ['type:feature', 'type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:e2e': ['type:testing', 'type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:feature': ['type:feature', 'type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:data-access': ['type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:testing': ['type:data-access', 'type:domain', 'type:util', 'type:contracts'],
  'type:domain': ['type:domain', 'type:contracts'],
  'type:util': ['type:util', 'type:contracts'],
  'type:contracts': ['type:contracts'],
};
// Whose code a project may use: its own scope and the shared one.
const SCOPES = ['gateway', 'otp', 'sms', 'billing', 'webhooks', 'tools', 'e2e'];

function boundaries(inTests) {
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      ...Object.entries(TYPE_RULES).map(([sourceTag, allowed]) => ({
        sourceTag,
        onlyDependOnLibsWithTags: inTests ? [...allowed, 'type:testing'] : allowed,
      })),
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      ...SCOPES.map((scope) => ({
        sourceTag: `scope:${scope}`,
        onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
      })),
    ],
  };
}

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.nx/**', 'tmp/**', 'coverage/**', 'bench/results/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.base.json' }, node: true },
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
      'import/no-cycle': ['error', { maxDepth: Infinity, ignoreExternal: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Env classes annotate `PORT: number = 3000`: swc emits the design:type metadata that
      // class-transformer converts by only from an explicit annotation.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreProperties: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through the app\'s env class (loadConfig), not process.env.',
        },
      ],
    },
  },
  {
    // Where reading the environment is the point: config loading, tests (and the end-to-end
    // suite's helpers), and the tools that start processes with an environment of their own.
    files: ['libs/config/**/*.ts', '**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts', 'apps/platform-e2e/**/*.ts', 'tools/**/*.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tests may also use the test helpers.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
