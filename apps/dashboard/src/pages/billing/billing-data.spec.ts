import { formatRate, formatSeconds } from '../../components/chart-format';
import { formatMoney, spendPoints, spendSummary, thresholdError, thresholdValue, totalSpent } from './billing-format';
import { isLedgerFiltered, ledgerFilterToSearch, ledgerQueryOf, parseLedgerFilter } from './ledger-filter';

describe('the ledger filter in the URL', () => {
  it('reads kinds (in the ledger order, each once), days and an exact reference', () => {
    expect(parseLedgerFilter({ kinds: 'refund,charge,gift,charge', from: '2026-11-01', to: '2026-11-02', reference: ' otp:abc ' })).toEqual({
      kinds: ['charge', 'refund'],
      from: '2026-11-01',
      to: '2026-11-02',
      reference: 'otp:abc',
    });
    expect(parseLedgerFilter({ kinds: ['topup', 'nope'] })).toEqual({ kinds: ['topup'] });
    expect(parseLedgerFilter({ kinds: 'gift', from: 'yesterday', cursor: 'x' })).toEqual({});
  });

  it('writes it back as the same parameters the API and the CSV export take', () => {
    const filter = { kinds: ['refund', 'charge'] as const, reference: 'message:1' };
    expect(ledgerFilterToSearch({ ...filter, kinds: [...filter.kinds] })).toEqual({ kinds: 'charge,refund', reference: 'message:1' });
    expect(ledgerQueryOf(parseLedgerFilter(ledgerFilterToSearch({ kinds: ['topup'], to: '2026-11-01' })))).toEqual({ kinds: 'topup', to: '2026-11-01' });
    expect(isLedgerFiltered({})).toBe(false);
    expect(isLedgerFiltered({ kinds: [] })).toBe(false);
  });
});

describe('billing figures', () => {
  it('writes money with 2 to 4 decimals, never rounding an amount the API gave', () => {
    expect(formatMoney(12.5, 'EUR')).toMatch(/12\.50/);
    expect(formatMoney(-0.0137, 'EUR')).toMatch(/0\.0137/);
    expect(formatMoney(1, 'XXX?')).toBe('1.0000 XXX?');
  });

  it('sums the spend exactly and plots it per day', () => {
    const days = [
      { day: '2026-11-25', charged: 0.1, refunded: 0, spent: 0.1 },
      { day: '2026-11-26', charged: 0.2, refunded: 0.0001, spent: 0.1999 },
    ];
    expect(totalSpent(days)).toBe(0.2999);
    expect(spendPoints(days).map((point) => point.spent)).toEqual([0.1, 0.1999]);
    expect(spendSummary(days, 'EUR')).toMatch(/0\.2999 spent from/);
    expect(spendSummary([], 'EUR')).toBe('Nothing spent');
  });

  it('checks a threshold as the API does: empty for none, zero or more, at most 4 decimals', () => {
    expect(thresholdError('')).toBeNull();
    expect(thresholdError('25')).toBeNull();
    expect(thresholdError(' 7.5 ')).toBeNull();
    expect(thresholdError('-1')).toBe('Enter zero or more');
    expect(thresholdError('1.23456')).toMatch(/at most 4 decimals/);
    expect(thresholdError('ten')).toMatch(/amount/);
    expect(thresholdValue('  ')).toBeNull();
    expect(thresholdValue(' 7.5 ')).toBe('7.5');
  });

  it('writes rates and durations for people', () => {
    expect(formatRate(0.3333)).toBe('33.3%');
    expect(formatSeconds(null)).toBe('—');
    expect(formatSeconds(12.25)).toBe('12.3 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatSeconds(120)).toBe('2 min');
  });
});
