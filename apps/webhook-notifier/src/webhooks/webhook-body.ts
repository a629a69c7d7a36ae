/** The key order of a message event's body, as decisions.md documents it; other payloads' keys follow, alphabetically. */
const KEY_ORDER = ['type', 'timestamp', 'data', 'message_id', 'to', 'status', 'reference', 'error_code', 'reason', 'parts'];

/**
 * The body sent. The payload is stored as jsonb, which reorders keys, so the documented order is
 * restored here (keys not listed follow, alphabetically): every attempt sends the same bytes.
 */
export function serializeEvent(payload: unknown): string {
  return JSON.stringify(ordered(payload));
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, ordered((value as Record<string, unknown>)[key])]));
}
