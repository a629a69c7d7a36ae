import { balancesAfterEach, planCharges, totalsByCompany } from './charge-plan';

describe('planCharges', () => {
  const balances = new Map([
    ['a', 1_000n],
    ['b', 50n],
  ]);

  it('charges in order from a running balance per company, each answered the balance right after it', () => {
    const { decisions, balancesAfter } = planCharges(balances, [
      { companyId: 'a', amount: 300n },
      { companyId: 'b', amount: 50n },
      { companyId: 'a', amount: 700n },
    ]);
    expect(decisions).toEqual([
      { ok: true, balanceAfter: 700n },
      { ok: true, balanceAfter: 0n },
      { ok: true, balanceAfter: 0n },
    ]);
    expect(balancesAfter).toEqual(
      new Map([
        ['a', 0n],
        ['b', 0n],
      ]),
    );
  });

  it('refuses a charge the rest does not cover, and still charges a later one that fits', () => {
    const { decisions, balancesAfter } = planCharges(balances, [
      { companyId: 'a', amount: 900n },
      { companyId: 'a', amount: 200n },
      { companyId: 'a', amount: 100n },
    ]);
    expect(decisions).toEqual([
      { ok: true, balanceAfter: 100n },
      { ok: false, reason: 'insufficient-balance', balance: 100n },
      { ok: true, balanceAfter: 0n },
    ]);
    expect(balancesAfter.get('a')).toBe(0n);
  });

  it('refuses a company without a balance, and leaves the given balances untouched', () => {
    const { decisions } = planCharges(balances, [{ companyId: 'nobody', amount: 0n }]);
    expect(decisions).toEqual([{ ok: false, reason: 'unknown-company' }]);
    expect(balances.get('a')).toBe(1_000n);
  });
});

describe('totalsByCompany and balancesAfterEach', () => {
  const charges = [
    { companyId: 'a', amount: 300n },
    { companyId: 'b', amount: 50n },
    { companyId: 'a', amount: 700n },
    { companyId: 'a', amount: 5n },
  ];

  it('adds up each company’s charges', () => {
    expect(totalsByCompany(charges)).toEqual(
      new Map([
        ['a', 1_005n],
        ['b', 50n],
      ]),
    );
  });

  it('answers the balance right after each charge from the balances after all of them', () => {
    expect(
      balancesAfterEach(
        charges,
        new Map([
          ['a', 10n],
          ['b', 0n],
        ]),
      ),
    ).toEqual([715n, 0n, 15n, 10n]);
  });

  it('agrees with planCharges when every charge fits', () => {
    const opening = new Map([
      ['a', 2_000n],
      ['b', 60n],
    ]);
    const plan = planCharges(opening, charges);
    expect(balancesAfterEach(charges, plan.balancesAfter)).toEqual(plan.decisions.map((d) => (d.ok ? d.balanceAfter : null)));
  });

  it('refuses to guess a company it has no balance for', () => {
    expect(() => balancesAfterEach(charges, new Map([['a', 0n]]))).toThrow('no balance after the charges of company b');
  });
});
