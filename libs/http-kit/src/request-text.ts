/**
 * Rules for the text a client sends, whatever route it reaches: no JSON nested deeper than any
 * body the API reads, and no NUL character (U+0000), which PostgreSQL cannot store in text and
 * no field of the API has a use for.
 */

/** The deepest body the API reads nests 3 levels (`{ messages: [{ to }] }`); this leaves room. */
export const MAX_JSON_DEPTH = 32;

export const TOO_DEEP_ERROR = `JSON nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

export function nulError(field: string): string {
  return `${field} must not contain the NUL character (U+0000)`;
}

export interface JsonTextFacts {
  /** Some array or object opens more than `maxDepth` levels deep. */
  tooDeep: boolean;
  /** A string (value or key) holds the escape `\u0000`: the only way JSON text can carry U+0000. */
  hasNul: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LETTER_U = 0x75;

/**
 * One pass over JSON text before it is parsed, so a body nested 100,000 levels deep is refused
 * before anything (the parser, class-transformer, a canonical form) walks it. Text that is not
 * valid JSON is scanned as far as it goes; the parser refuses it afterwards.
 */
export function scanJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextFacts {
  let depth = 0;
  let hasNul = false;
  let inString = false;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === QUOTE) inString = false;
      else if (code === BACKSLASH) {
        if (text.charCodeAt(i + 1) === LETTER_U && text.startsWith('0000', i + 2)) hasNul = true;
        i++; // the escaped character, whatever it is, neither ends the string nor escapes again
      }
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      if (++depth > maxDepth) return { tooDeep: true, hasNul };
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth--;
  }
  return { tooDeep: false, hasNul };
}

/**
 * Where a parsed value holds U+0000: the path of the first string that does (`messages[3].to`,
 * `custom_vars.name`), `a field name` when it is a key, or undefined. Iterative: the value may
 * be large (a million recipients), never deep (see scanJsonText).
 */
export function findNulCharacter(value: unknown, root = 'body'): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: root }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop() as { value: unknown; path: string };
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: `${path}[${i}]` });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>).reverse();
      for (const [key, item] of entries) {
        if (key.includes('\u0000')) return 'a field name';
        pending.push({ value: item, path: path === root ? key : `${path}.${key}` });
      }
    }
  }
  return undefined;
}
