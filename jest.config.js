// Three suites: unit tests beside the code, integration tests against the machine's real
// PostgreSQL and Redis, and end-to-end tests that start the apps as processes.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]));

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

// NestJS 12 ships ES modules only. Node 20 loads them with require(esm), but Jest's module
// system does not before Node 24.9, so Jest compiles those packages to CommonJS with swc.
const ESM_ONLY_PACKAGES = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'sql-template-tag',
  'content-disposition',
  'cookie',
];

const swcEsm = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, '/node_modules/.+\\.m?js$': swcEsm },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY_PACKAGES.join('|')})/)`],
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'],
};

// The web console's specs: TSX with React's automatic runtime, in jsdom.
const swcReact = [
  '@swc/jest',
  { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target: 'es2022' }, module: { type: 'commonjs' } },
];
const DASHBOARD = '<rootDir>/apps/dashboard';

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '/apps/dashboard/'],
    },
    // Also `unit`: `--selectProjects unit` runs both.
    {
      ...common,
      displayName: 'unit',
      testEnvironment: `${DASHBOARD}/test/jsdom-environment.js`,
      testMatch: [`${DASHBOARD}/src/**/*.spec.{ts,tsx}`],
      transform: { '^.+\\.tsx?$': swcReact, '/node_modules/.+\\.m?js$': swcEsm },
      moduleNameMapper: { '\\.css$': `${DASHBOARD}/test/style-stub.js` },
      setupFilesAfterEnv: [`${DASHBOARD}/test/setup.ts`],
    },
    {
      ...common,
      displayName: 'integration',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/long-timeout.js'],
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.integration-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.js',
    },
    {
      ...common,
      displayName: 'e2e',
      // Every answer of the gateway and every webhook the specs see is checked against docs/openapi.json.
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/long-timeout.js', '<rootDir>/libs/testing/src/openapi/conformance.ts'],
      testMatch: ['<rootDir>/apps/platform-e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.js',
    },
    // Fault tests (npm run test:faults, one file at a time): each starts its own PostgreSQL, Redis
    // and apps, and breaks them on purpose; the machine's shared servers are never touched.
    {
      ...common,
      displayName: 'faults',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/long-timeout.js'],
      testMatch: ['<rootDir>/apps/platform-e2e/src/faults/**/*.fault-spec.ts'],
    },
  ],
};
