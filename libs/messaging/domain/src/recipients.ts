import { INVALID_PHONE_NUMBER, parsePhoneNumber } from './phone-number';

export interface RecipientList {
  /** Unique by e164, in the order of their first occurrence. */
  valid: { input: string; e164: string }[];
  /** Each invalid entry as given, trimmed, every time it occurs. */
  invalid: { number: string; error: string }[];
  /** Valid entries dropped because an earlier one had the same e164. */
  duplicates: number;
  /** Entries in the request, after splitting, before dedupe: valid + duplicates + invalid. */
  total: number;
}

const SEPARATORS = /[,;]/;

/** "a, b;c;;" → ["a", "b", "c"]: split on commas and/or semicolons, trimmed, empties dropped. */
export function splitRecipientString(input: string): string[] {
  return input
    .split(SEPARATORS)
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * The recipients of a request. A string is split on commas and semicolons; an array is taken entry
 * by entry (each trimmed, and split too when it contains a separator; an empty element is an
 * invalid entry). With more than one entry a number may lack its `+` (decisions.md); a single
 * recipient may not. Duplicate numbers are sent once.
 */
export function parseRecipients(input: string | readonly string[]): RecipientList {
  const entries = recipientEntries(input);
  const allowMissingPlus = entries.length > 1;
  const list: RecipientList = { valid: [], invalid: [], duplicates: 0, total: entries.length };
  const seen = new Set<string>();
  for (const entry of entries) {
    const parsed = parsePhoneNumber(entry, { allowMissingPlus });
    if (!parsed.ok) {
      list.invalid.push({ number: entry, error: INVALID_PHONE_NUMBER });
    } else if (seen.has(parsed.e164)) {
      list.duplicates++;
    } else {
      seen.add(parsed.e164);
      list.valid.push({ input: entry, e164: parsed.e164 });
    }
  }
  return list;
}

/** The entries of a recipients field: a string split on separators, an array element by element. */
export function recipientEntries(input: string | readonly string[]): string[] {
  return typeof input === 'string' ? splitRecipientString(input) : input.flatMap(arrayEntries);
}

/** One array element: its numbers when it holds a separated list, else itself trimmed. */
function arrayEntries(element: string): string[] {
  const split = SEPARATORS.test(element) ? splitRecipientString(element) : [];
  return split.length > 0 ? split : [element.trim()];
}
