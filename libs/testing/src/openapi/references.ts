import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiValidator } from './openapi-validator';

// The gateway's two API references: the dashboard API's (/dashboard/api/, its own document) and
// the public API's (every other path). Each answer is checked against the one its path belongs to.

const DOCS = join(__dirname, '..', '..', '..', '..', 'docs');
const DASHBOARD_API = /^(\/v1)?\/dashboard\/api(\/|$)/;

export interface ApiReference {
  file: string;
  validator: OpenApiValidator;
}

const loaded = new Map<string, ApiReference>();

function reference(file: string): ApiReference {
  let found = loaded.get(file);
  if (!found) {
    found = { file, validator: new OpenApiValidator(JSON.parse(readFileSync(join(DOCS, file), 'utf8')) as Record<string, unknown>) };
    loaded.set(file, found);
  }
  return found;
}

/** The reference an answer to this path (with or without its query string) is checked against. */
export function referenceFor(path: string): ApiReference {
  return reference(DASHBOARD_API.test(path.split('?')[0]) ? 'dashboard-api.json' : 'openapi.json');
}
