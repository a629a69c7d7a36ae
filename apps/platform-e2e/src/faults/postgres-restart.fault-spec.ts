import { parseMoney } from '@mp/billing-domain';
import type { Client } from 'pg';
import { ApiClient, type Company } from '../support/api-client';
import type { SimulatorStats } from '../support/dispatcher-fault';
import { handsetCopies, moneyOf, printFigures, twoFinalEvents, waitUntilSettled, type Copies, type Money, type Settled } from './support/fault-checks';
import { startFaultPlatform, type FaultPlatform } from './support/fault-platform';
import { AttemptLog, sendSms, sleep, waitFor, type Accepted } from './support/load';
import { answersOf, firstSuccess } from './support/outage-probe';

const MESSAGES = 500;
const KILL_AT_ACCEPTED = 120;
/** How long PostgreSQL stays down. */
const DOWN_MS = 5_000;
const SETTLE_TIMEOUT_MS = 240_000;

const numberAt = (i: number) => `+33613${String(i).padStart(6, '0')}`;

/**
 * PostgreSQL stopped at once (pg_ctl -m immediate: every connection cut, crash recovery on the
 * next start) in the middle of single sends, and started again 5 s later. The apps are not
 * restarted: they must serve again by themselves.
 */
describe('a PostgreSQL restart during sends', () => {
  let platform: FaultPlatform;
  let company: Company;
  let db: Client;
  const log = new AttemptLog();
  let accepted: Accepted[] = [];
  let givenUp: string[] = [];
  let downAt = 0;
  let upAt = 0;
  let settled: Settled;
  let copies: Copies;
  let money: Money;
  let stats: SimulatorStats;
  let handsetCount = 0;

  const api = new ApiClient(
    () => platform.gatewayUrl,
    () => company,
  );

  async function restartMidway(): Promise<void> {
    await waitFor(async () => (await platform.simulator.stats()).accepted >= KILL_AT_ACCEPTED, 120_000);
    downAt = Date.now();
    await platform.postgres.kill();
    await sleep(DOWN_MS);
    await platform.postgres.start();
    upAt = Date.now();
  }

  beforeAll(async () => {
    platform = await startFaultPlatform({ simulatorEnv: { SMSC_LATENCY_MS: '5' } });
    company = await platform.createCompany('Postgres restart', '100');
    const restarting = restartMidway();
    ({ accepted, givenUp } = await sendSms(api, log, { total: MESSAGES, concurrency: 6, numberAt, textAt: (i) => `Postgres test ${i}`, idempotent: true }));
    await restarting;
    settled = await waitUntilSettled(platform.connect, company.company_id, accepted, SETTLE_TIMEOUT_MS);
    await sleep(1_000);
    db = await platform.connect();
    stats = await platform.simulator.stats();
    const handsets = await platform.simulator.handsets();
    handsetCount = handsets.length;
    copies = await handsetCopies(db, accepted, handsets);
    money = await moneyOf(db, company.company_id);
    printFigures({
      fault: 'PostgreSQL restart during sends',
      accepted: accepted.length,
      finalStates: settled.byStatus,
      notFinal: settled.notFinal,
      handsetsOnce: copies.once,
      duplicatesAtHandsets: copies.wrong.length,
      resubmitsDroppedByCarrier: stats.duplicates_dropped,
      answers: log.tally(),
      answersDuringFault: answersOf(log, '/sms/send', downAt, upAt),
      secondsDown: (upAt - downAt) / 1000,
      secondsToResume: ((firstSuccess(log, '/sms/send', upAt) ?? Number.NaN) - upAt) / 1000,
      money,
      carrier: stats,
    });
  }, 900_000);

  afterAll(async () => {
    if (!settled || settled.notFinal > 0) console.log(JSON.stringify(platform?.warnings()));
    await db?.end();
    await platform?.stop();
  });

  it('answered 503 while PostgreSQL was down, never a 500, never a timeout', () => {
    const during = answersOf(log, '/sms/send', downAt + 1_000, upAt);
    expect(during['503']).toBeGreaterThan(0);
    expect(Object.keys(log.tally()).filter((outcome) => !['200', '503'].includes(outcome))).toEqual([]);
  });

  it('served again by itself once PostgreSQL was back, and accepted every send (those answered 503 tried again)', () => {
    expect(firstSuccess(log, '/sms/send', upAt)).toBeDefined();
    expect(givenUp).toEqual([]);
    expect(accepted).toHaveLength(MESSAGES);
    expect({ stored: settled.stored, missing: settled.missing }).toEqual({ stored: MESSAGES, missing: 0 });
  });

  it('ends every message in exactly one final state: delivered', async () => {
    expect(settled).toMatchObject({ notFinal: 0, byStatus: { delivered: MESSAGES } });
    expect(await twoFinalEvents(db, company.company_id)).toBe(0);
  });

  it('submitted nothing twice: one copy on each handset, the carrier accepted each part once', () => {
    expect(copies.wrong).toEqual([]);
    expect(copies.once).toBe(MESSAGES);
    expect(stats.accepted).toBe(handsetCount);
    expect(stats.accepted).toBe(MESSAGES);
  });

  it('keeps the money exact: balance = start − charges + refunds, one charge per accepted send', async () => {
    expect(money).toMatchObject({ exact: true, matchesMessages: true });
    const { rows } = await db.query<{ price: string }>(`SELECT min(price_per_part)::text AS price FROM messages WHERE company_id = $1`, [company.company_id]);
    expect(parseMoney(money.charges)).toBe(BigInt(MESSAGES) * parseMoney(rows[0].price));
    expect(parseMoney(money.refunds)).toBe(0n);
  });
});
