import type { OperatorCompany } from '../../api/operator';
import { amountError, filterCompanies, parseCompanyFilter, prefixError, referenceError } from './operator-rules';

describe('amountError', () => {
  it('takes a decimal with at most 4 decimals, more than zero', () => {
    for (const ok of ['50', '0.035', ' 12.5 ', '1234567890123456.9999']) expect(amountError(ok)).toBeNull();
  });

  it('says why anything else is refused', () => {
    expect(amountError('')).toBe('Amount is required');
    expect(amountError('0')).toBe('Amount must be more than zero');
    expect(amountError('0.0000')).toBe('Amount must be more than zero');
    for (const bad of ['-5', '1.00001', '1e3', '10,5', 'ten', '.5']) expect(amountError(bad)).toMatch(/^Amount must be a number with at most 4 decimals/);
  });

  it('allows zero for an opening balance, named as asked', () => {
    expect(amountError('0', { allowZero: true, field: 'Opening balance' })).toBeNull();
    expect(amountError('x', { allowZero: true, field: 'Opening balance' })).toMatch(/^Opening balance must be/);
  });
});

describe('referenceError and prefixError', () => {
  it('refuse a long or multi-line reference and a prefix without +', () => {
    expect(referenceError('wire 42')).toBeNull();
    expect(referenceError('x'.repeat(101))).toMatch(/at most 100/);
    expect(referenceError('a\nb')).toMatch(/one line/);
    expect(prefixError('+44')).toBeNull();
    expect(prefixError('+')).toBeNull();
    expect(prefixError('44')).toMatch(/^Prefix must be/);
    expect(prefixError('+44a')).toMatch(/^Prefix must be/);
  });
});

describe('filterCompanies', () => {
  const company = (name: string, status: 'active' | 'suspended', id: string): OperatorCompany => ({
    id,
    name,
    status,
    currency: 'EUR',
    balance: 1,
    suspended_at: null,
    created_at: '2026-11-26T10:00:00Z',
  });
  const all = [company('Acme', 'active', 'aaaa-1'), company('Globex', 'suspended', 'bbbb-2')];

  it('keeps those of the status whose name or id matches', () => {
    expect(filterCompanies(all, 'all', '').map((c) => c.name)).toEqual(['Acme', 'Globex']);
    expect(filterCompanies(all, 'suspended', '').map((c) => c.name)).toEqual(['Globex']);
    expect(filterCompanies(all, 'all', 'acm').map((c) => c.name)).toEqual(['Acme']);
    expect(filterCompanies(all, 'all', 'bbbb').map((c) => c.name)).toEqual(['Globex']);
    expect(filterCompanies(all, 'active', 'glob')).toEqual([]);
  });

  it('reads the status filter from the URL, all unless it names one', () => {
    expect(parseCompanyFilter('suspended')).toBe('suspended');
    expect(parseCompanyFilter('nonsense')).toBe('all');
    expect(parseCompanyFilter(undefined)).toBe('all');
  });
});
