import fc from 'fast-check';

/**
 * Values a hostile or careless client sends, as JSON text: every JSON type, the texts that broke
 * the gateway before (null, NUL, control characters, lone surrogates), huge and deep values.
 * Each arbitrary gives the JSON text of one value, so a value can be one JSON cannot express as
 * an object (a duplicate key, 3,000 levels of nesting).
 */
export type JsonText = string;

const json = (value: unknown): JsonText => JSON.stringify(value);

/** Texts that are hard for a parser, a validator, a database or a log line. */
export const NASTY_TEXTS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '+44\u00007911123456',
  '\u0001\u0002\u001f\u007f',
  '\t\r\n',
  '\ud800',
  'x\udfffy',
  '\ud83d\ude00',
  '\u202e\u200b\ufeff',
  '€^{}\\[~]|',
  "'; DROP TABLE messages; --",
  '%00%s%n{{otp}}${x}',
  '{{otp}}',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'null',
  'true',
  '0',
  '-1',
  '1e400',
  '2147483648',
  '99999999999',
  '9007199254740993',
  'NaN',
  '2026-12-01T09:00:00Z',
  '1970-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  'http://127.0.0.1/x',
  'http://169.254.169.254/latest',
  'https://hooks.example.com/sms',
  'javascript:alert(1)',
];

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 4, 8, 1600, 10_000, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 5e-324),
);

/** Any text: short unicode (lone surrogates included), a nasty one, or a long one. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXTS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(1_601, 20_001, 100_000).map((n) => 'x'.repeat(n)) },
);

/** Any JSON value as text, nested a little. */
const anyJsonValue: fc.Arbitrary<JsonText> = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      numbers,
      anyText,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(anyText, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString')), tie('value'), { maxKeys: 4 }),
    ),
  }))
  .value.map(json);

/** Arrays or objects nested past any limit, written out as text. */
const deepValue: fc.Arbitrary<JsonText> = fc
  .record({ levels: fc.constantFrom(31, 33, 3_000, 100_000), open: fc.constantFrom('[', '{"a":') })
  .map(({ levels, open }) => `${open.repeat(levels)}${open === '[' ? ']'.repeat(levels) : `1${'}'.repeat(levels)}`}`);

/** Any value a field might be given: mostly plausible ones for that field, then anything. */
export function fieldValue(plausible: fc.Arbitrary<unknown>): fc.Arbitrary<JsonText> {
  return fc.oneof({ weight: 5, arbitrary: plausible.map(json) }, { weight: 3, arbitrary: anyJsonValue }, { weight: 1, arbitrary: deepValue });
}

export interface BodyShape {
  /** Field name → what is plausible for it. */
  fields: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

/**
 * A JSON body as text: some of the route's fields (aliases included), sometimes unknown and
 * prototype keys, sometimes a key twice (the last one wins in JSON.parse), or not an object at all.
 */
export function jsonBody(shape: BodyShape): fc.Arbitrary<JsonText> {
  const names = Object.keys(shape.fields);
  const entry = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names).chain((name) => fieldValue(shape.fields[name]).map((value) => [name, value] as const)) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(anyText, fc.constantFrom('__proto__', 'constructor', 'prototype', 'schedule_time')), anyJsonValue) },
  );
  const object = fc.array(entry, { maxLength: names.length + 2 }).map((entries) => `{${entries.map(([key, value]) => `${json(key)}:${value}`).join(',')}}`);
  const duplicated = fc
    .tuple(fc.constantFrom(...names), fieldValue(shape.fields[names[0]]), fc.constantFrom('null', '"\\u0000"', '{}', '[]'))
    .map(([name, first, last]) => `{${json(name)}:${first},${json(name)}:${last}}`);
  const notAnObject = fc.oneof(
    anyJsonValue,
    deepValue,
    fc.constantFrom(
      '',
      ' ',
      '{',
      '{"to":',
      '[1,]',
      '{"a":1}}',
      'nul',
      '\u0000',
      '{"a":"\\ud800"}',
      '{"a":"\\u0000"}',
      '{"__proto__":{"x":1}}',
      '{"a":{"constructor":{"prototype":{}}}}',
    ),
  );
  return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: duplicated }, { weight: 1, arbitrary: notAnObject });
}

/** A query string: the route's parameters (some twice), odd names, and odd values, percent-encoded. */
export function queryString(names: readonly string[], plausible: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const name = names.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: anyText }) : anyText;
  const value = fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: anyText }, { weight: 1, arbitrary: numbers.map(String) });
  return fc
    .array(fc.tuple(name, value), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([n, v]) => `${encodeText(n)}=${encodeText(v)}`).join('&')}`));
}

/** A path segment as a client might send it: an id, something else, or something odd. */
export function pathId(known: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: fc.uuid() }, { weight: 2, arbitrary: anyText.filter((text) => text.length < 2_000) })
    .map(encodeText);
}

/** Percent-encoding that survives lone surrogates (encodeURIComponent throws on them). */
export function encodeText(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`))
    .join('');
}
