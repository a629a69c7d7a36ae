import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewayOpenApiTexts } from './build-gateway-document';

/** `npm run openapi`: regenerates docs/openapi.json (the public API) and docs/dashboard-api.json from the code. */
async function main(): Promise<void> {
  const texts = await buildGatewayOpenApiTexts();
  for (const [file, text] of [
    ['openapi.json', texts.publicApi],
    ['dashboard-api.json', texts.dashboardApi],
  ]) {
    const target = join(process.cwd(), 'docs', file);
    writeFileSync(target, text);
    process.stdout.write(`wrote ${target}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
