import type { OpenAPIObject } from '@nestjs/swagger';

const SCHEMA_REF = '#/components/schemas/';

/**
 * Closes every object schema an answer or a webhook uses (`additionalProperties: false`, unless
 * it says otherwise): the reference lists every field the platform sends, so a field the code
 * adds without documenting it fails the end-to-end suite's check against this document. Request
 * schemas stay as they are.
 */
export function closeAnswerSchemas(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const roots: unknown[] = [];
  for (const item of [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})]) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (!isObject(operation)) continue;
      for (const response of Object.values((operation['responses'] ?? {}) as Record<string, unknown>)) roots.push(contentSchemas(response));
    }
  }
  for (const item of Object.values(document.webhooks ?? {})) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (isObject(operation)) roots.push(contentSchemas(operation['requestBody']));
    }
  }
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const ref = node['$ref'];
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
      const name = ref.slice(SCHEMA_REF.length);
      if (!seen.has(name)) {
        seen.add(name);
        visit(schemas[name]);
      }
      return;
    }
    if (isObject(node['properties']) && node['additionalProperties'] === undefined) node['additionalProperties'] = false;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isObject(value)) Object.values(value).forEach(visit);
      else if (key !== 'example' && key !== 'examples' && key !== 'enum' && key !== 'default') visit(value);
    }
  };
  roots.forEach(visit);
}

function contentSchemas(holder: unknown): unknown[] {
  if (!isObject(holder) || !isObject(holder['content'])) return [];
  return Object.values(holder['content']).map((media) => (isObject(media) ? media['schema'] : undefined));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
