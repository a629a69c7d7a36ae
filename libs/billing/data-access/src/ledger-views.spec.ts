import { ledgerCsvFileName, ledgerCsvRecord, ledgerFilterError, NO_LEDGER_FILTER } from './ledger-views';

describe('ledger views, their pure parts', () => {
  it('writes an entry as a CSV record with exact amounts of 4 decimals and guarded texts', () => {
    const record = ledgerCsvRecord({
      id: '42',
      created_at: new Date('2026-11-20T10:00:00.123Z'),
      kind: 'charge',
      amount: '-1234567890123.0137',
      balance_after: '0.1',
      reference: '=cmd|calc',
      description: 'parts, "never" sent',
    });
    expect(record).toBe(`42,2026-11-20T10:00:00.123Z,charge,-1234567890123.0137,0.1000,'=cmd|calc,"parts, ""never"" sent"\r\n`);
  });

  it('names what is wrong with a filter', () => {
    expect(ledgerFilterError(NO_LEDGER_FILTER)).toBeNull();
    expect(ledgerFilterError({ ...NO_LEDGER_FILTER, kinds: ['charge', 'gift' as never] })).toBe('kind must be one of topup, charge, refund, adjustment');
    expect(ledgerFilterError({ ...NO_LEDGER_FILTER, from: new Date(2), before: new Date(1) })).toBe('from must be before to');
    expect(ledgerFilterError({ ...NO_LEDGER_FILTER, before: new Date('x') })).toBe('dates must be ISO 8601 timestamps');
  });

  it('suggests a file name from the company and the day', () => {
    expect(ledgerCsvFileName('Acme & Sons Ltd.', new Date('2026-11-20T23:00:00Z'))).toBe('ledger-acme-sons-ltd-2026-11-20.csv');
    expect(ledgerCsvFileName('Ω', new Date('2026-11-20T23:00:00Z'))).toBe('ledger-company-2026-11-20.csv');
  });
});
