import { QueryFailedError, type DataSource } from 'typeorm';
import { committedCharge, isOutcomeUnknown } from './commit-verification';

const pgError = (code: string | undefined, message: string) => Object.assign(new Error(message), code === undefined ? {} : { code });
const failedQuery = (driverError: Error) => new QueryFailedError('INSERT …', [], driverError);

describe('isOutcomeUnknown', () => {
  it('doubts a statement whose connection was lost while it ran', () => {
    expect(isOutcomeUnknown(failedQuery(pgError(undefined, 'Connection terminated unexpectedly')))).toBe(true);
    expect(isOutcomeUnknown(failedQuery(pgError('57P01', 'terminating connection due to administrator command')))).toBe(true);
    expect(isOutcomeUnknown(pgError('ECONNRESET', 'read ECONNRESET'))).toBe(true);
  });

  it('does not doubt a connection never made, or an error PostgreSQL reported (rolled back)', () => {
    expect(isOutcomeUnknown(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(false);
    expect(isOutcomeUnknown(pgError('57P03', 'the database system is starting up'))).toBe(false);
    expect(isOutcomeUnknown(failedQuery(pgError('23514', 'new row violates check constraint')))).toBe(false);
    expect(isOutcomeUnknown(new Error('boom'))).toBe(false);
    expect(isOutcomeUnknown(undefined)).toBe(false);
  });
});

describe('committedCharge', () => {
  const charge = { companyId: 'c1', reference: 'sms-request:r1' };
  const answering = (...answers: (() => Promise<unknown>)[]) => {
    let n = 0;
    return { query: () => answers[Math.min(n++, answers.length - 1)]() } as unknown as DataSource;
  };
  const down = () => Promise.reject(pgError('ECONNREFUSED', 'connect ECONNREFUSED'));

  it('asks again while the database is down, then answers the balance after the charge if it was committed', async () => {
    const db = answering(down, down, () => Promise.resolve([{ balance_after: '9.9900' }]));
    expect(await committedCharge(db, charge, { timeoutMs: 5_000, pollMs: 1 })).toBe(99_900n);
  });

  it('answers null when the charge is not in the ledger, undefined when the database never answered', async () => {
    expect(
      await committedCharge(
        answering(() => Promise.resolve([])),
        charge,
        { timeoutMs: 5_000, pollMs: 1 },
      ),
    ).toBeNull();
    expect(await committedCharge(answering(down), charge, { timeoutMs: 20, pollMs: 5 })).toBeUndefined();
  });
});
