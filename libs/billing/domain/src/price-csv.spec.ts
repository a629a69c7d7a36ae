import { parseMoney } from './money';
import { formatPriceCsv, MAX_PRICE_CSV_ROWS, parsePriceCsv, PriceCsvError, splitCsvLine } from './price-csv';
import type { PriceRule } from './pricing';

const rules: PriceRule[] = [
  { prefix: '+', route: 'auto', price: parseMoney('0.01') },
  { prefix: '+44', route: 'premium', price: parseMoney('0.035') },
  { prefix: '+4477', route: 'whatsapp', price: parseMoney('12') },
];

function refusal(text: string): PriceCsvError {
  try {
    parsePriceCsv(text);
  } catch (error) {
    if (error instanceof PriceCsvError) return error;
    throw error;
  }
  throw new Error('the CSV was accepted');
}

describe('formatPriceCsv', () => {
  it('writes a header and one CRLF row per rule, prices with 4 decimals', () => {
    expect(formatPriceCsv(rules)).toBe('prefix,route,price\r\n+,auto,0.0100\r\n+44,premium,0.0350\r\n+4477,whatsapp,12.0000\r\n');
  });

  it('is read back as the same rules', () => {
    expect(parsePriceCsv(formatPriceCsv(rules))).toEqual(rules);
  });
});

describe('parsePriceCsv', () => {
  it('takes the columns in any order and case, LF or CRLF, a BOM, blank lines and quoted fields', () => {
    const text = '\uFEFFPrice, Route ,PREFIX\n\n"0.02",standard,"+1"\r\n0.5,auto,+33\n';
    expect(parsePriceCsv(text)).toEqual([
      { prefix: '+1', route: 'standard', price: parseMoney('0.02') },
      { prefix: '+33', route: 'auto', price: parseMoney('0.5') },
    ]);
  });

  it("reads a prefix a spreadsheet saved without its + or with a leading ' as the + prefix", () => {
    expect(parsePriceCsv("prefix,route,price\n44,auto,1\n'+49,auto,1\n").map((rule) => rule.prefix)).toEqual(['+44', '+49']);
  });

  it('names the line of the first bad row', () => {
    expect(refusal('prefix,route,price\n+44,auto,0.01\n\n+1,fast,0.01\n').message).toBe('line 4: route must be one of auto, standard, premium, whatsapp');
    expect(refusal('prefix,route,price\n+44,auto,0.00001\n')).toMatchObject({ line: 2, message: expect.stringContaining('price must be a decimal') });
    expect(refusal('prefix,route,price\n+44,auto,-1\n').message).toBe('line 2: price must not be negative');
    expect(refusal('prefix,route,price\n44a,auto,1\n').message).toMatch(/^line 2: prefix must be/);
    expect(refusal('prefix,route,price\n+44,auto\n').message).toBe('line 2: expected 3 fields (prefix,route,price), found 2');
    expect(refusal('prefix,route,price\n+44,auto,1,2\n').line).toBe(2);
    expect(refusal('prefix,route,price\n"+44,auto,1\n').message).toBe('line 2: a quoted field is not closed');
  });

  it('refuses a prefix and route given twice, naming both lines', () => {
    expect(refusal('prefix,route,price\n+44,auto,1\n+1,auto,1\n+44,auto,2\n').message).toBe('line 4: +44 auto is already priced on line 2');
  });

  it('refuses a missing or wrong header, an empty file and a file without rows', () => {
    expect(refusal('').line).toBe(0);
    expect(refusal('prefix,route,price\r\n').message).toBe('the file has a header but no prices');
    expect(refusal('+44,auto,1\n').message).toMatch(/^line 1: the header must name the columns prefix, route and price/);
    expect(refusal('prefix,route,price,note\n+44,auto,1,x\n').line).toBe(1);
  });

  it('refuses more rows than a price table has', () => {
    const text = `prefix,route,price\n${Array.from({ length: MAX_PRICE_CSV_ROWS + 1 }, (_, i) => `+${i},auto,1`).join('\n')}`;
    expect(refusal(text).message).toBe(`at most ${MAX_PRICE_CSV_ROWS} rows a file`);
  });
});

describe('splitCsvLine', () => {
  it('splits RFC 4180 fields: quotes doubled inside quotes, empty fields kept', () => {
    expect(splitCsvLine('a,"b,c","d""e",', 1)).toEqual(['a', 'b,c', 'd"e', '']);
    expect(splitCsvLine('', 1)).toEqual(['']);
    expect(() => splitCsvLine('"a"b', 7)).toThrow('line 7: text after a quoted field');
  });
});
