import { openTestDataSource } from '@mp/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LedgerRepository } from './ledger.repository';

describe('LedgerRepository.countBalanceMismatches (PostgreSQL)', () => {
  let db: DataSource;
  let ledger: LedgerRepository;

  const company = async () => {
    const id = randomUUID();
    await db.query(`INSERT INTO companies (id, name, webhook_secret) VALUES ($1, 'Mismatch', 'whsec_x')`, [id]);
    await db.transaction((manager) => ledger.openBalance(manager, id));
    return id;
  };

  beforeAll(async () => {
    db = await openTestDataSource('balance-mismatches-test');
    ledger = new LedgerRepository(db);
  });

  afterAll(() => db.destroy());

  it('counts the companies whose balance is not their latest entry’s balance_after (none without an entry at 0)', async () => {
    const [fresh, moved, broken] = [await company(), await company(), await company()];
    await ledger.apply({ companyId: moved, kind: 'topup', amount: 50_000n });
    await ledger.apply({ companyId: moved, kind: 'charge', amount: -350n });
    await ledger.apply({ companyId: broken, kind: 'topup', amount: 10_000n });
    expect(await ledger.countBalanceMismatches([fresh, moved, broken])).toBe(0);
    // Money moved without an entry.
    await db.query(`UPDATE balances SET balance = balance + 1 WHERE company_id = $1`, [broken]);
    expect(await ledger.countBalanceMismatches([fresh, moved, broken])).toBe(1);
    expect(await ledger.countBalanceMismatches()).toBeGreaterThanOrEqual(1);
  });
});
