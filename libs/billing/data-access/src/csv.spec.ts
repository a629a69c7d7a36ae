import { csvField, csvRecord, csvText } from './csv';

describe('CSV', () => {
  it('writes plain fields as they are, and null as empty', () => {
    expect(csvRecord(['1', '-0.0137', null, 'charge'])).toBe('1,-0.0137,,charge\r\n');
  });

  it('quotes a field holding a comma, a quote, a line break or outer spaces, doubling its quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('padded ')).toBe('"padded "');
    expect(csvField('in between')).toBe('in between');
  });

  it('keeps free text from being read as a formula by a spreadsheet', () => {
    for (const text of ['=HYPERLINK("http://x")', '+1+1', '-2', '@SUM(A1)', '\tx', '\rx']) expect(csvText(text)).toBe(`'${text}`);
    expect(csvText('order=1')).toBe('order=1');
    expect(csvText(null)).toBeNull();
    expect(csvRecord([csvText('=1,2')])).toBe(`"'=1,2"\r\n`);
  });
});
