import { badCharacterOf, findBadCharacter, MAX_JSON_DEPTH, scanJsonText } from './request-text';

const findNulCharacter = (value: unknown, root?: string) => findBadCharacter(value, root)?.field;

const nested = (levels: number, open = '[', close = ']') => `{"to":${open.repeat(levels)}${close.repeat(levels)}}`;

describe('scanJsonText', () => {
  it('lets JSON as deep as the limit through and refuses one level more', () => {
    expect(scanJsonText(nested(MAX_JSON_DEPTH - 1))).toEqual({ tooDeep: false, hasNul: false, hasSurrogateEscape: false });
    expect(scanJsonText(nested(MAX_JSON_DEPTH)).tooDeep).toBe(true);
    expect(scanJsonText(nested(100_000, '{"a":', '}')).tooDeep).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ message: '['.repeat(1000) + '"{{{' + '\\"[[[' });
    expect(scanJsonText(text)).toEqual({ tooDeep: false, hasNul: false, hasSurrogateEscape: false });
  });

  it('finds the escape of U+0000 in values and keys, and only a real escape', () => {
    expect(scanJsonText(JSON.stringify({ reference: 'a\u0000b' })).hasNul).toBe(true);
    expect(scanJsonText(JSON.stringify({ 'k\u0000': 1 })).hasNul).toBe(true);
    // A backslash, then the six characters "u0000": text, not the character.
    expect(scanJsonText(JSON.stringify({ reference: '\\u0000' })).hasNul).toBe(false);
    expect(scanJsonText(JSON.stringify({ reference: '\\\u0000' })).hasNul).toBe(true);
    expect(scanJsonText(JSON.stringify({ reference: '\u0001\u001f\ud800' })).hasNul).toBe(false);
  });

  it('notes an escape of a surrogate, lone or paired, in either case', () => {
    expect(scanJsonText('{"text":"x\\udfffy"}')).toEqual({ tooDeep: false, hasNul: false, hasSurrogateEscape: true });
    expect(scanJsonText('{"text":"\\uD83D\\uDE00"}').hasSurrogateEscape).toBe(true);
    expect(scanJsonText('{"text":"\\u00e9 \\\\ud800"}').hasSurrogateEscape).toBe(false);
  });

  it('scans invalid JSON as far as it goes without throwing', () => {
    expect(scanJsonText('{"a":"\\')).toEqual({ tooDeep: false, hasNul: false, hasSurrogateEscape: false });
    expect(scanJsonText(']]]]{')).toEqual({ tooDeep: false, hasNul: false, hasSurrogateEscape: false });
  });
});

describe('badCharacterOf', () => {
  it('finds U+0000 and a surrogate without its pair, never a whole pair', () => {
    expect(badCharacterOf('a\u0000')).toBe('nul');
    expect(badCharacterOf('x\udfffy')).toBe('lone-surrogate');
    expect(badCharacterOf('\ud800')).toBe('lone-surrogate');
    expect(badCharacterOf('\ude00\ud83d')).toBe('lone-surrogate');
    expect(badCharacterOf('😀 é ü')).toBeUndefined();
  });
});

describe('findBadCharacter', () => {
  it('says which bad character the first field holds', () => {
    expect(findBadCharacter({ text: 'x\udfffy' })).toEqual({ field: 'text', bad: 'lone-surrogate' });
    expect(findBadCharacter({ custom_vars: { ['\ud800']: 'x' } })).toEqual({ field: 'a field name', bad: 'lone-surrogate' });
    expect(findBadCharacter({ reference: '\u0000' })).toEqual({ field: 'reference', bad: 'nul' });
  });

  it('names the first field that holds U+0000', () => {
    expect(findNulCharacter({ to: '+44', reference: 'a\u0000' })).toBe('reference');
    expect(findNulCharacter({ messages: [{ to: '+44' }, { to: '+44', message: '\u0000' }] })).toBe('messages[1].message');
    expect(findNulCharacter({ custom_vars: { shop: 'x\u0000' } })).toBe('custom_vars.shop');
    expect(findNulCharacter({ custom_vars: { ['sh\u0000op']: 'x' } })).toBe('a field name');
    expect(findNulCharacter({ appid: ['a', 'b\u0000'] }, 'query')).toBe('appid[1]');
    expect(findNulCharacter('\u0000')).toBe('body');
  });

  it('finds nothing in clean values of every JSON type', () => {
    expect(findNulCharacter({ a: null, b: 1, c: true, d: [{}], e: 'text' })).toBeUndefined();
    expect(findNulCharacter(undefined)).toBeUndefined();
  });

  it('walks a million entries without recursion', () => {
    const recipients = Array.from({ length: 1_000_000 }, () => '+447400123456');
    recipients[999_999] = '+44\u0000';
    expect(findNulCharacter({ recipients })).toBe('recipients[999999]');
  });
});
