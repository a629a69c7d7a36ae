import type { ApiKey } from '../../api/types';

/** Which keys the page lists (the `status` search parameter). */
export const KEY_FILTERS = ['active', 'revoked', 'all'] as const;
export type KeyFilter = (typeof KEY_FILTERS)[number];
export const DEFAULT_KEY_FILTER: KeyFilter = 'active';

/** The filter a URL asks for; anything else is the default. */
export function parseKeyFilter(value: unknown): KeyFilter {
  return KEY_FILTERS.find((filter) => filter === value) ?? DEFAULT_KEY_FILTER;
}

export function filterKeys(keys: readonly ApiKey[], filter: KeyFilter): ApiKey[] {
  if (filter === 'all') return [...keys];
  return keys.filter((key) => (filter === 'active' ? key.revoked_at === null : key.revoked_at !== null));
}
