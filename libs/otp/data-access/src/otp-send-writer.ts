import type { ItemOutcome } from '@mp/batching';
import { balancesFromJson, balancesJson, isUncoveredCharge, LedgerRepository, UnknownCompanyError, type GroupCharge } from '@mp/billing';
import { balancesAfterEach, formatMoney, planCharges, type ChargeDecision, type Money } from '@mp/billing-domain';
import { insertWithJobsChargingStatement, MessageRepository, type AlsoInserted, type NewMessage } from '@mp/messaging';
import { blockLookbackStart, blockUntil, retryAfterSeconds, type OtpChannel } from '@mp/otp-domain';
import {
  inOneRoundTrip,
  inTransactionOpenedWith,
  join,
  openingOf,
  openingWithLiterals,
  lockKeysInOrder,
  lockKeysInOrderOpening,
  GENERIC_PLANS,
  queryPrepared,
  raw,
  sql,
  sqlArray,
  sqlLiteral,
  unnest,
  type Opening,
  type PreparedOpening,
  type Sql,
} from '@mp/persistence';
import type { OutboxJob } from '@mp/queue-runtime';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { OtpBlockedError, OtpNotAffordableError } from './otp-errors';
import { otpDeliveryJobs } from './otp-message';
import { recipientLockKey } from './otp-recipient-lock';

/** One OTP send, prepared outside the transaction: its row values, its message and its job. */
export interface PreparedOtp {
  id: string;
  companyId: string;
  applicationId: string;
  recipient: string;
  /** ISO 3166-1 alpha-2; null for a non-geographic number. */
  country: string | null;
  channel: OtpChannel;
  sender: string;
  lang: string;
  codeLength: number;
  codeHash: string;
  expiresAt: Date;
  sentAt: Date;
  templateText: string;
  customVars: Record<string, string | number | boolean>;
  expiryMinutes: number;
  message: NewMessage;
}

export interface WrittenOtps {
  outcomes: ItemOutcome<{ balance: Money }>[];
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

/**
 * Writes many OTP sends at once (a group commit): the recipients are locked (in key order) and
 * those blocked refused, the rest charged (one ledger entry each, never below zero) and their
 * messages, OTP rows and `sent` events inserted with multi-row statements, all in one
 * transaction.
 *
 * Most groups take one round trip: BEGIN, the recipient locks, a check that none of the
 * recipients has a recent wrong code, the inserts with the charges (chargeCtes), COMMIT. A
 * recipient without a recent wrong code cannot be blocked, so the check stands in for reading
 * them. When it fails (a wrong code in the block's lookback), the group is written in two round
 * trips instead: BEGIN with the locks and the read of the wrong codes, then, without the blocked
 * sends, the inserts with the charges and the COMMIT. If a balance does not cover the group, the
 * charging statement fails and the transaction writes nothing; the group is then written again
 * with the balances locked first, each send charged or refused in turn.
 */
export async function writeOtpSends(
  db: DataSource,
  messages: MessageRepository,
  ledger: LedgerRepository,
  sends: readonly PreparedOtp[],
): Promise<WrittenOtps> {
  try {
    return await writeUnblockedAtOnce(db, sends).catch((error: unknown) => {
      if (hasRecentWrongCodes(error)) return writeAllCharged(db, sends);
      throw error;
    });
  } catch (error) {
    if (!isUncoveredCharge(error)) throw error;
    return db.transaction((manager) => writeChargeByCharge(manager, messages, ledger, sends));
  }
}

/** The whole group in one round trip, when none of its recipients has a recent wrong code (else hasRecentWrongCodes). */
async function writeUnblockedAtOnce(db: DataSource, sends: readonly PreparedOtp[]): Promise<WrittenOtps> {
  const charges = sends.map(chargeOf);
  const inserted = await insertOtps(sends, async (rows, jobs, otpRows) => {
    const statement = insertWithJobsChargingStatement(rows, jobs, charges, otpRows);
    const results = await inOneRoundTrip(db, [GENERIC_PLANS, lockKeysInOrderOpening(sends.map(lockKeyOf)), noRecentWrongCodes(sends), openingOf(statement)]);
    return statement.read(results[3]?.rows[0]);
  });
  const balances = balancesAfterEach(charges, inserted.balances);
  return { outcomes: sends.map((send, i) => outcomeOf(send, undefined, { ok: true, balanceAfter: balances[i] })), outbox: inserted.outbox };
}

/** Named in the error noRecentWrongCodes raises. */
const RECENT_WRONG_CODES = 'otp group: recipients with recent wrong codes';
const INVALID_TEXT_REPRESENTATION = '22P02';

/**
 * A statement that fails, aborting its transaction, when a recipient of the group has a wrong
 * code in the block's lookback: plain SQL cannot raise an error, so it casts a text naming the
 * case to an integer, which fails only when that branch is taken (the text is not a constant the
 * planner could fold).
 */
function noRecentWrongCodes(sends: readonly PreparedOtp[]): PreparedOpening {
  const refusal = raw(`'${RECENT_WRONG_CODES}: '`);
  return openingWithLiterals(sql`SELECT CASE WHEN failures IS NOT NULL THEN (${refusal} || json_array_length(failures))::int END AS refused
           FROM (SELECT ${recentFailuresOf(sends)} AS failures) f`);
}

function hasRecentWrongCodes(error: unknown): boolean {
  const driverError = (error instanceof QueryFailedError ? error.driverError : error) as { code?: unknown; message?: unknown } | null;
  return driverError?.code === INVALID_TEXT_REPRESENTATION && String(driverError.message).includes(RECENT_WRONG_CODES);
}

/** recentFailures of the group, its values written as literals, for a statement that opens a transaction. */
function recentFailuresOf(sends: readonly PreparedOtp[]): Sql {
  return recentFailures(
    sql`${sqlArray(
      sends.map((s) => s.applicationId),
      'uuid',
    )}::uuid[]`,
    sql`${sqlArray(
      sends.map((s) => s.recipient),
      'text',
    )}::text[]`,
    sql`${sqlLiteral(blockLookbackStart(sends[0].sentAt))}::timestamptz`,
  );
}

/** The group in two round trips: the wrong codes read after the locks, the blocked sends left out. */
async function writeAllCharged(db: DataSource, sends: readonly PreparedOtp[]): Promise<WrittenOtps> {
  const opening: Opening[] = [
    GENERIC_PLANS,
    lockKeysInOrderOpening(sends.map(lockKeyOf)),
    openingWithLiterals(sql`SELECT ${recentFailuresOf(sends)} AS failures`),
  ];
  // The insert and the charges travel with the COMMIT: the balance row is locked only until it.
  return inTransactionOpenedWith(db, opening, async (_, [, , read], commitWith) => {
    const blocked = blockedSends(sends, read.rows[0]?.['failures'] as FailureRow[] | null);
    const open = sends.filter((send) => !blocked.has(send.id));
    if (open.length === 0) return { outcomes: sends.map((send) => outcomeOf(send, blocked.get(send.id), undefined)), outbox: { ids: [], jobs: [] } };
    const charges = open.map(chargeOf);
    const inserted = await insertOtps(open, async (rows, jobs, otpRows) => {
      const statement = insertWithJobsChargingStatement(rows, jobs, charges, otpRows);
      return statement.read((await commitWith(statement)).rows[0]);
    });
    const balances = balancesAfterEach(charges, inserted.balances);
    const decisions = new Map(open.map((send, i): [string, ChargeDecision] => [send.id, { ok: true, balanceAfter: balances[i] }]));
    return { outcomes: sends.map((send) => outcomeOf(send, blocked.get(send.id), decisions.get(send.id))), outbox: inserted.outbox };
  });
}

async function writeChargeByCharge(
  manager: EntityManager,
  messages: MessageRepository,
  ledger: LedgerRepository,
  sends: readonly PreparedOtp[],
): Promise<WrittenOtps> {
  const { blocked, balances } = await lockAndRead(manager, sends);
  const open = sends.filter((send) => !blocked.has(send.id));
  const plan = planCharges(balances, open.map(chargeOf));
  const accepted = open.filter((_, i) => plan.decisions[i].ok);
  const decisions = new Map(open.map((send, i) => [send.id, plan.decisions[i]]));
  let outbox: WrittenOtps['outbox'] = { ids: [], jobs: [] };
  if (accepted.length > 0) {
    outbox = (await insertOtps(accepted, async (rows, jobs, otpRows) => ({ outboxIds: await messages.insertWithJobs(manager, rows, jobs, otpRows) }))).outbox;
  }
  await ledger.writeCharges(
    manager,
    accepted.map((send) => ({ ...chargeOf(send), balanceAfter: balanceOf(decisions.get(send.id)) })),
    plan.balancesAfter,
  );
  return { outcomes: sends.map((send) => outcomeOf(send, blocked.get(send.id), decisions.get(send.id))), outbox };
}

export function chargeOf(send: PreparedOtp): GroupCharge {
  return { companyId: send.companyId, amount: send.message.cost, reference: `otp:${send.id}` };
}

function lockKeyOf(send: PreparedOtp): string {
  return recipientLockKey(send.applicationId, send.recipient);
}

/** A recent wrong code: [application id, recipient, created at]. */
type FailureRow = [string, string, string];

/** A scalar sub-select: the recent wrong codes of these recipients (arrays of applications and numbers, in pairs) as FailureRows. */
function recentFailures(applicationIds: Sql, recipients: Sql, since: Sql): Sql {
  return sql`(SELECT json_agg(json_build_array(a.application_id, a.recipient, a.created_at)) FROM otp_attempts a
             JOIN unnest(${applicationIds}, ${recipients}) AS r(application_id, recipient) ON a.application_id = r.application_id AND a.recipient = r.recipient
             WHERE a.outcome = 'invalid_code' AND a.created_at >= ${since})`;
}

/** Each blocked send's refusal, from its recipient's recent wrong codes. */
function blockedSends(sends: readonly PreparedOtp[], rows: readonly FailureRow[] | null): Map<string, OtpBlockedError> {
  const failures = new Map<string, Date[]>();
  for (const [applicationId, recipient, createdAt] of rows ?? []) {
    const key = `${applicationId}:${recipient}`;
    failures.set(key, [...(failures.get(key) ?? []), new Date(createdAt)]);
  }
  const blocked = new Map<string, OtpBlockedError>();
  for (const send of sends) {
    const until = blockUntil(failures.get(`${send.applicationId}:${send.recipient}`) ?? [], send.sentAt);
    if (until) blocked.set(send.id, new OtpBlockedError(until, retryAfterSeconds(until, send.sentAt)));
  }
  return blocked;
}

/**
 * Locks every recipient of the group in key order; then, in one statement, reads their recent
 * wrong codes (to refuse the blocked ones) and locks and reads the companies' balances.
 */
async function lockAndRead(
  manager: EntityManager,
  sends: readonly PreparedOtp[],
): Promise<{ blocked: Map<string, OtpBlockedError>; balances: Map<string, Money> }> {
  await lockKeysInOrder(manager, sends.map(lockKeyOf));
  const companies = [...new Set(sends.map((send) => send.companyId))].sort();
  const failures = recentFailures(
    sql`${sends.map((s) => s.applicationId)}::uuid[]`,
    sql`${sends.map((s) => s.recipient)}::text[]`,
    sql`${blockLookbackStart(sends[0].sentAt)}`,
  );
  const [row] = await queryPrepared<{ failures: FailureRow[] | null; balances: [string, string][] | null }>(
    manager,
    sql`SELECT ${failures} AS failures, ${balancesJson(companies, { lock: true })} AS balances`,
  );
  return { blocked: blockedSends(sends, row?.failures ?? null), balances: balancesFromJson(row?.balances ?? null) };
}

/** Inserts the group's messages (their parts, OTP rows, `sent` events, dispatch jobs) in one statement, with `insert`. */
async function insertOtps<R extends { outboxIds: string[] }>(
  sends: readonly PreparedOtp[],
  insert: (messages: NewMessage[], jobs: OutboxJob[], otpRows: AlsoInserted) => Promise<R>,
): Promise<R & { outbox: WrittenOtps['outbox'] }> {
  const jobs = otpDeliveryJobs(
    sends.map((send) => ({ channel: send.channel, messageId: send.message.id })),
    sends[0].sentAt,
  );
  const column = <T>(pick: (send: PreparedOtp) => T, type: string): [T[], string] => [sends.map(pick), type];
  const otps = unnest([
    column((s) => s.id, 'uuid'),
    column((s) => s.companyId, 'uuid'),
    column((s) => s.applicationId, 'uuid'),
    column((s) => s.recipient, 'text'),
    column((s) => s.country, 'text'),
    column((s) => s.channel, 'text'),
    column((s) => s.sender, 'text'),
    column((s) => s.lang, 'text'),
    column((s) => s.codeLength, 'smallint'),
    column((s) => s.codeHash, 'text'),
    column((s) => s.expiresAt.toISOString(), 'timestamptz'),
    column((s) => s.sentAt.toISOString(), 'timestamptz'),
    column((s) => s.message.id, 'uuid'),
    column((s) => formatMoney(s.message.cost), 'numeric'),
    column((s) => s.templateText, 'text'),
    column((s) => JSON.stringify(s.customVars), 'jsonb'),
    column((s) => s.expiryMinutes, 'smallint'),
  ]);
  const otpRows = join(
    [
      sql`o AS (
           INSERT INTO otps (id, company_id, application_id, recipient, country, channel, sender, lang, code_length, code_hash, expires_at,
             last_sent_at, message_id, cost, template_text, custom_vars, expiry_minutes, created_at)
           SELECT id, company_id, application_id, recipient, country, channel, sender, lang, code_length, code_hash, expires_at,
             sent_at, message_id, cost, template_text, custom_vars, expiry_minutes, sent_at
           FROM ${otps}
             AS t(id, company_id, application_id, recipient, country, channel, sender, lang, code_length, code_hash, expires_at, sent_at, message_id,
               cost, template_text, custom_vars, expiry_minutes)
           RETURNING id, company_id, application_id, recipient, channel, created_at)`,
      sql`e AS (
           INSERT INTO otp_events (otp_id, company_id, application_id, recipient, event, detail, created_at)
           SELECT id, company_id, application_id, recipient, 'sent', jsonb_build_object('channel', channel), created_at FROM o)`,
    ],
    ', ',
  );
  const inserted = await insert(
    sends.map((send) => send.message),
    jobs,
    otpRows,
  );
  return { ...inserted, outbox: { ids: inserted.outboxIds, jobs } };
}

function balanceOf(decision: ChargeDecision | undefined): Money {
  if (!decision?.ok) throw new Error('only accepted sends are charged');
  return decision.balanceAfter;
}

function outcomeOf(send: PreparedOtp, blocked: OtpBlockedError | undefined, decision: ChargeDecision | undefined): ItemOutcome<{ balance: Money }> {
  if (blocked) return { ok: false, error: blocked };
  if (decision?.ok) return { ok: true, value: { balance: decision.balanceAfter } };
  if (decision?.reason === 'insufficient-balance') return { ok: false, error: new OtpNotAffordableError(decision.balance, send.message.cost) };
  return { ok: false, error: new UnknownCompanyError(send.companyId) };
}
