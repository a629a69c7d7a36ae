import { costText, partCapacity, partsText, ucs2Reason } from './preview-text';

describe('the preview in words', () => {
  it('names the character that forces UCS-2 with its position, and an invisible one by its code point', () => {
    expect(ucs2Reason({ ucs2_character: { character: 'ż', position: 5 } })).toBe('“ż” at position 5 forces UCS-2');
    expect(ucs2Reason({ ucs2_character: { character: '😀', position: 12 } })).toBe('“😀” at position 12 forces UCS-2');
    expect(ucs2Reason({ ucs2_character: { character: '\u00a0', position: 3 } })).toBe('“\u00a0” (U+00A0) at position 3 forces UCS-2');
    expect(ucs2Reason({ ucs2_character: null })).toBeNull();
  });

  it('says the cost as the exact strings the server sent, parts times the price of one', () => {
    expect(costText({ cost: '0.0300', price_per_part: '0.0150', parts: 2, currency: 'EUR' })).toBe('0.0300 EUR (2 parts × 0.0150 EUR)');
    expect(costText({ cost: '0.0100', price_per_part: '0.0100', parts: 1, currency: '' })).toBe('0.0100 (1 part × 0.0100)');
    expect(partsText(3)).toBe('3 parts');
  });

  it('knows what one part holds per encoding', () => {
    expect([partCapacity('GSM-7', 1), partCapacity('GSM-7', 2), partCapacity('UCS-2', 1), partCapacity('UCS-2', 3)]).toEqual([160, 153, 70, 67]);
  });
});
