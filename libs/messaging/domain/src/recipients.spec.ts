import { INVALID_PHONE_NUMBER } from './phone-number';
import { parseRecipients, splitRecipientString } from './recipients';

const invalid = (number: string) => ({ number, error: INVALID_PHONE_NUMBER });

describe('splitRecipientString', () => {
  it.each([
    ['+447911123456', ['+447911123456']],
    ['+447911123456,+33612345678', ['+447911123456', '+33612345678']],
    [' a ; b , c;,; d ', ['a', 'b', 'c', 'd']],
    [' ,; ', []],
    ['', []],
  ])('splits %p', (input, entries) => {
    expect(splitRecipientString(input)).toEqual(entries);
  });
});

describe('parseRecipients', () => {
  it('parses one recipient, refusing a missing +', () => {
    expect(parseRecipients('+447911123456')).toEqual({
      valid: [{ input: '+447911123456', e164: '+447911123456' }],
      invalid: [],
      duplicates: 0,
      total: 1,
    });
    expect(parseRecipients(' 447911123456 ')).toEqual({ valid: [], invalid: [invalid('447911123456')], duplicates: 0, total: 1 });
    expect(parseRecipients(['447911123456']).invalid).toEqual([invalid('447911123456')]);
  });

  it('splits a string on commas and semicolons and accepts a missing + in a list', () => {
    expect(parseRecipients('+447911123456; 33612345678 ,abc')).toEqual({
      valid: [
        { input: '+447911123456', e164: '+447911123456' },
        { input: '33612345678', e164: '+33612345678' },
      ],
      invalid: [invalid('abc')],
      duplicates: 0,
      total: 3,
    });
  });

  it('sends a number once, counting the duplicates by e164 in first-occurrence order', () => {
    const list = parseRecipients('+33612345678,+447911123456,447911123456,+33612345678');
    expect(list.valid.map((recipient) => recipient.input)).toEqual(['+33612345678', '+447911123456']);
    expect(list).toMatchObject({ duplicates: 2, total: 4 });
  });

  it('lists every invalid entry as given, trimmed, repeats included', () => {
    const list = parseRecipients(['+44 7911 123456 ', 'abc', 'abc', '+14155552671']);
    expect(list.invalid).toEqual([invalid('+44 7911 123456'), invalid('abc'), invalid('abc')]);
    expect(list).toMatchObject({ duplicates: 0, total: 4 });
  });

  it('takes an array entry by entry, splitting an element that holds a list', () => {
    const list = parseRecipients([' +447911123456 ', '33612345678;+14155552671,', '4915112345678']);
    expect(list.valid.map((recipient) => recipient.e164)).toEqual(['+447911123456', '+33612345678', '+14155552671', '+4915112345678']);
    expect(list.total).toBe(4);
  });

  it('counts an empty array element as an invalid entry', () => {
    expect(parseRecipients(['+447911123456', ' ', ';'])).toEqual({
      valid: [{ input: '+447911123456', e164: '+447911123456' }],
      invalid: [invalid(''), invalid(';')],
      duplicates: 0,
      total: 3,
    });
  });

  it('answers an empty list for no entries', () => {
    expect(parseRecipients(' ; ')).toEqual({ valid: [], invalid: [], duplicates: 0, total: 0 });
    expect(parseRecipients([])).toEqual({ valid: [], invalid: [], duplicates: 0, total: 0 });
  });

  it('keeps total = valid + duplicates + invalid', () => {
    const list = parseRecipients('+447911123456,447911123456,x,+1234,+33612345678,+33612345678');
    expect(list.valid.length + list.duplicates + list.invalid.length).toBe(list.total);
    expect(list.total).toBe(6);
  });
});
