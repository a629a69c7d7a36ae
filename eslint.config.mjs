// Lint rules that keep the architecture honest: Nx module boundaries (apps depend on libs, libs
// never on apps, a domain on the others only as DOMAINS says, domain libs on nothing with I/O), no
// floating promises. Import cycles, type-only ones included, are dependency-cruiser's
// (.dependency-cruiser.cjs, run by `npm run lint`).
import nx from '@nx/eslint-plugin';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// What a kind of project may depend on; no kind may depend on an app. A domain's tables are
// reached through its `data-access` lib; `infra` is what every app stands on (the database and
// queue plumbing, HTTP and health, the SMPP client); `domain` is pure rules; `util` small helpers.
const TYPE_RULES = {
  'type:app': ['type:feature', 'type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  'type:tool': ['type:feature', 'type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  // The web console runs in a browser: pure rules at most, never the server's libs.
  'type:web': ['type:domain', 'type:util', 'type:contracts'],
  'type:e2e': ['type:testing', 'type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  'type:feature': ['type:feature', 'type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  'type:data-access': ['type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  'type:testing': ['type:data-access', 'type:infra', 'type:domain', 'type:util', 'type:contracts'],
  'type:infra': ['type:infra', 'type:util', 'type:contracts'],
  'type:domain': ['type:domain', 'type:contracts'],
  'type:util': ['type:util', 'type:contracts'],
  'type:contracts': ['type:contracts'],
};
// Pure rules reach no database, queue, carrier or framework.
// What a browser cannot run, or must not carry.
const WEB_BANNED_IMPORTS = ['node:*', 'pg', 'pg-*', 'typeorm', '@nestjs/*', 'bullmq', 'ioredis', 'smpp', 'fastify', '@fastify/*', 'pino', 'jsonwebtoken'];
const DOMAIN_BANNED_IMPORTS = ['pg', 'pg-*', 'typeorm', '@nestjs/*', 'bullmq', 'ioredis', 'smpp', 'fastify', 'node:net', 'node:http', 'node:https', 'node:dns'];
// Which other domains a domain's libs may use, in production code (a DAG). Billing (balances and
// the ledger) and accounts are used by those that charge and look up companies; webhooks knows
// no other domain: each builds its own events and hands them over.
const DOMAINS = {
  billing: [],
  webhooks: [],
  accounts: ['billing'],
  sms: ['billing'],
  otp: ['sms', 'billing', 'accounts'],
};
const ALL_DOMAINS = Object.keys(DOMAINS);

function boundaries(inTests) {
  return {
    enforceBuildableLibDependency: false,
    allow: [],
    depConstraints: [
      ...Object.entries(TYPE_RULES).map(([sourceTag, allowed]) => ({
        sourceTag,
        onlyDependOnLibsWithTags: inTests ? [...allowed, 'type:testing'] : allowed,
      })),
      { sourceTag: 'type:domain', bannedExternalImports: DOMAIN_BANNED_IMPORTS },
      { sourceTag: 'type:web', bannedExternalImports: WEB_BANNED_IMPORTS },
      { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      // Tests may set up any domain's data (a company to send for, a message to settle).
      ...Object.entries(DOMAINS).map(([domain, uses]) => ({
        sourceTag: `scope:${domain}`,
        onlyDependOnLibsWithTags: [`scope:${domain}`, 'scope:shared', ...(inTests ? ALL_DOMAINS : uses).map((used) => `scope:${used}`)],
      })),
      // Apps, tools and the end-to-end suite wire the domains together.
      ...['app', 'tools', 'e2e'].map((scope) => ({
        sourceTag: `scope:${scope}`,
        onlyDependOnLibsWithTags: ['scope:shared', ...ALL_DOMAINS.map((domain) => `scope:${domain}`)],
      })),
    ],
  };
}

export default [
  { ignores: ['**/node_modules/**', '**/dist/**', '.data/**', '.nx/**', 'tmp/**', 'coverage/**', 'bench/results/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': ['error', boundaries(false)],
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
          message: "Read configuration through the app's env class (loadConfig), not process.env.",
        },
      ],
    },
  },
  {
    // Where reading the environment is the point: config loading, tests (and the end-to-end
    // suite's helpers), and the tools that start processes with an environment of their own.
    files: [
      'libs/config/**/*.ts',
      '**/*.spec.ts',
      '**/*.integration-spec.ts',
      '**/*.e2e-spec.ts',
      'libs/testing/**/*.ts',
      'apps/platform-e2e/**/*.ts',
      'tools/**/*.ts',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Tests may also use the test helpers.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts'],
    rules: { '@nx/enforce-module-boundaries': ['error', boundaries(true)] },
  },
  {
    // The web console (React): the rules of hooks, and accessibility checks of the markup.
    files: ['apps/dashboard/**/*.tsx', 'apps/dashboard/**/*.ts'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.flat['recommended-latest'].rules, ...jsxA11y.flatConfigs.recommended.rules },
  },
  {
    // Its build configuration runs in Node.
    files: ['apps/dashboard/vite.config.mts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
];
