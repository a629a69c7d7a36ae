import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewayOpenApiText } from './build-gateway-document';

describe('docs/openapi.json', () => {
  let generated: string;

  beforeAll(async () => {
    generated = await buildGatewayOpenApiText();
  });

  it('is what the code declares (run `npm run openapi` after changing an endpoint)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8');
    expect(committed).toBe(generated);
  });

  it('documents the endpoints, their errors and the three auth schemes', () => {
    const document = JSON.parse(generated);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKey', 'apiSecret', 'basic', 'bearer']);
    expect(document.paths['/balance'].get.responses).toHaveProperty('401');
    expect(document.paths['/auth/token'].post.security).toEqual([]);
    expect(document.paths['/health/ready'].get.security).toEqual([]);
    expect(document.paths['/balance'].get.security).toBeUndefined();
  });
});
