import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewayOpenApiText } from './build-gateway-document';

/** `npm run openapi`: regenerates docs/openapi.json from the code. */
async function main(): Promise<void> {
  const target = join(process.cwd(), 'docs', 'openapi.json');
  writeFileSync(target, await buildGatewayOpenApiText());
  process.stdout.write(`wrote ${target}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
