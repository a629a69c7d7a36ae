/**
 * Rules for the text a client sends, whatever route it reaches: no JSON nested deeper than any
 * body the API reads, no NUL character (U+0000), which PostgreSQL cannot store in text and no
 * field of the API has a use for, and no lone surrogate (`\udfff` without its pair), which is no
 * character at all: PostgreSQL refuses it in jsonb, and text would keep a U+FFFD in its place.
 */

/** The deepest body the API reads nests 3 levels (`{ messages: [{ to }] }`); this leaves room. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_ERROR = `JSON nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

export function nulError(field: string): string {
  return `${field} must not contain the NUL character (U+0000)`;
}

export function surrogateError(field: string): string {
  return `${field} must be valid Unicode text: it holds half of a surrogate pair (an escape \\ud800 to \\udfff without its other half)`;
}

/** What makes a string unstorable: U+0000, or a surrogate without its pair. */
export type BadCharacter = 'nul' | 'lone-surrogate';

/** A high surrogate not followed by a low one, or a low one not after a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function badCharacterOf(text: string): BadCharacter | undefined {
  if (text.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'lone-surrogate' : undefined;
}

export function badCharacterError(field: string, bad: BadCharacter): string {
  return bad === 'nul' ? nulError(field) : surrogateError(field);
}

export interface JsonTextFacts {
  /** Some array or object opens more than `maxDepth` levels deep. */
  tooDeep: boolean;
  /** A string (value or key) holds the escape `\u0000`: the only way JSON text can carry U+0000. */
  hasNul: boolean;
  /** A string holds an escape `\ud800` to `\udfff`: the only way JSON text can carry a lone surrogate (paired ones too). */
  hasSurrogateEscape: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LETTER_U = 0x75;
const LETTER_D = 0x64;
const UPPER_D = 0x44;

/**
 * One pass over JSON text before it is parsed, so a body nested 100,000 levels deep is refused
 * before anything (the parser, class-transformer, a canonical form) walks it. Text that is not
 * valid JSON is scanned as far as it goes; the parser refuses it afterwards.
 */
export function scanJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextFacts {
  let depth = 0;
  let hasNul = false;
  let hasSurrogateEscape = false;
  let inString = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === QUOTE) inString = false;
      else if (code === BACKSLASH) {
        if (text.charCodeAt(i + 1) === LETTER_U) {
          if (text.startsWith('0000', i + 2)) hasNul = true;
          else if (isSurrogateEscape(text, i + 2)) hasSurrogateEscape = true;
        }
        i++; // the escaped character, whatever it is, neither ends the string nor escapes again
      }
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return { tooDeep: true, hasNul, hasSurrogateEscape };
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
  }
  return { tooDeep: false, hasNul, hasSurrogateEscape };
}

/** The four hex digits at `at` are D800 to DFFF. */
function isSurrogateEscape(text: string, at: number): boolean {
  const first = text.charCodeAt(at);
  return (first === LETTER_D || first === UPPER_D) && /^[89a-fA-F]$/.test(text.charAt(at + 1));
}

/**
 * Where a parsed value holds U+0000 or a lone surrogate: the path of the first string that does
 * (`messages[3].to`, `custom_vars.name`), `a field name` when it is a key, and which; or undefined.
 * Iterative: the value may be large (a million recipients), never deep (see scanJsonText).
 */
export function findBadCharacter(value: unknown, root = 'body'): { field: string; bad: BadCharacter } | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: root }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop() as { value: unknown; path: string };
    if (typeof current === 'string') {
      const bad = badCharacterOf(current);
      if (bad) return { field: path, bad };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: `${path}[${i}]` });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>).reverse();
      for (const [key, item] of entries) {
        const bad = badCharacterOf(key);
        if (bad) return { field: 'a field name', bad };
        pending.push({ value: item, path: path === root ? key : `${path}.${key}` });
      }
    }
  }
  return undefined;
}
