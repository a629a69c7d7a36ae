// Resolves the workspace's @mp/* aliases for the compiled output in dist/out, so that
// `node -r ./tools/runtime/register.js dist/out/apps/<app>/src/main.js` runs an app.
const path = require('node:path');
const tsConfigPaths = require('tsconfig-paths');
const { compilerOptions } = require('../../tsconfig.base.json');

tsConfigPaths.register({
  baseUrl: path.join(__dirname, '..', '..', 'dist', 'out'),
  paths: compilerOptions.paths,
});
