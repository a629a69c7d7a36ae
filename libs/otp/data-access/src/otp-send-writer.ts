import type { ItemOutcome } from '@mp/batching';
import { formatMoney, planCharges, type ChargeDecision, type Money } from '@mp/billing-domain';
import { blockLookbackStart, blockUntil, retryAfterSeconds, type OtpChannel } from '@mp/otp-domain';
import { balancesFromJson, balancesJson, LedgerRepository, lockKeysInOrder, MessageRepository, queryPrepared, UnknownCompanyError, type NewMessage, type OutboxJob } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { OtpBlockedError, OtpNotAffordableError } from './otp-errors';
import { otpDeliveryJobs } from './otp-message';
import { recipientLockKey } from './otp-recipient-lock';

/** One OTP send, prepared outside the transaction: its row values, its message and its job. */
export interface PreparedOtp {
  id: string;
  companyId: string;
  applicationId: string;
  recipient: string;
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

class BalanceMovedError extends Error {}

/**
 * Writes many OTP sends in ONE transaction (a group commit): the recipients are locked (in key
 * order) and those blocked refused, the rest charged from running balances (one ledger entry
 * each, balance rows locked last and checked against the plan, as the SMS acceptance does), and
 * their messages, OTP rows and `sent` events inserted with multi-row statements.
 */
export async function writeOtpSends(db: DataSource, sends: readonly PreparedOtp[]): Promise<WrittenOtps> {
  try {
    return await db.transaction((manager) => write(db, manager, sends, 'lock-late'));
  } catch (error) {
    if (!(error instanceof BalanceMovedError)) throw error;
    return db.transaction((manager) => write(db, manager, sends, 'lock-first'));
  }
}

async function write(db: DataSource, manager: EntityManager, sends: readonly PreparedOtp[], mode: 'lock-late' | 'lock-first'): Promise<WrittenOtps> {
  const ledger = new LedgerRepository(db);
  const { blocked, balances } = await lockAndRead(manager, sends, mode === 'lock-first');
  const open = sends.filter((send) => !blocked.has(send.id));
  const charges = open.map((send) => ({ companyId: send.companyId, amount: send.message.cost }));
  const companies = open.map((send) => send.companyId);
  let plan = planCharges(balances, charges);
  const accepted = open.filter((_, i) => plan.decisions[i].ok);
  let outbox: WrittenOtps['outbox'] = { ids: [], jobs: [] };
  if (accepted.length > 0) {
    // The insert statement also locks the balances: late, that saves a statement of its own
    // (lock-first holds them already).
    const inserted = await insertOtps(db, manager, accepted, companies);
    outbox = inserted.outbox;
    if (mode === 'lock-late') {
      const locked = planCharges(inserted.lockedBalances, charges);
      if (locked.decisions.some((decision, i) => decision.ok !== plan.decisions[i].ok)) throw new BalanceMovedError();
      plan = locked;
    }
  }
  const decisions = new Map(open.map((send, i) => [send.id, plan.decisions[i]]));
  await ledger.writeCharges(
    manager,
    accepted.map((send) => ({ companyId: send.companyId, amount: send.message.cost, balanceAfter: balanceOf(decisions.get(send.id)), reference: `otp:${send.id}` })),
    plan.balancesAfter,
  );
  return { outcomes: sends.map((send) => outcomeOf(send, blocked.get(send.id), decisions.get(send.id))), outbox };
}

/** What the group's first read found: each blocked send's refusal, and the balances (unlocked). */
interface GroupState {
  blocked: Map<string, OtpBlockedError>;
  balances: Map<string, Money>;
}

/**
 * Locks every recipient of the group in key order; then, in one statement, reads their recent
 * wrong codes (to refuse the blocked ones) and the companies' balances, locked only when `lock`.
 */
async function lockAndRead(manager: EntityManager, sends: readonly PreparedOtp[], lock: boolean): Promise<GroupState> {
  await lockKeysInOrder(manager, sends.map((send) => recipientLockKey(send.applicationId, send.recipient)));
  const now = sends[0].sentAt;
  const companies = [...new Set(sends.map((send) => send.companyId))].sort();
  const [row] = await queryPrepared<{ failures: [string, string, string][] | null; balances: [string, string][] | null }>(
    manager,
    `SELECT (SELECT json_agg(json_build_array(a.application_id, a.recipient, a.created_at)) FROM otp_attempts a
             JOIN unnest($1::uuid[], $2::text[]) AS r(application_id, recipient) ON a.application_id = r.application_id AND a.recipient = r.recipient
             WHERE a.outcome = 'invalid_code' AND a.created_at >= $3) AS failures,
            ${balancesJson(4, { lock })} AS balances`,
    [sends.map((s) => s.applicationId), sends.map((s) => s.recipient), blockLookbackStart(now), companies],
  );
  const failures = new Map<string, Date[]>();
  for (const [applicationId, recipient, createdAt] of row?.failures ?? []) {
    const key = `${applicationId}:${recipient}`;
    failures.set(key, [...(failures.get(key) ?? []), new Date(createdAt)]);
  }
  const blocked = new Map<string, OtpBlockedError>();
  for (const send of sends) {
    const until = blockUntil(failures.get(`${send.applicationId}:${send.recipient}`) ?? [], send.sentAt);
    if (until) blocked.set(send.id, new OtpBlockedError(until, retryAfterSeconds(until, send.sentAt)));
  }
  return { blocked, balances: balancesFromJson(row?.balances ?? null) };
}

/**
 * The group's messages, their parts, OTP rows, `sent` events and dispatch jobs: one statement,
 * which also locks and reads the balances of `companies`.
 */
async function insertOtps(
  db: DataSource,
  manager: EntityManager,
  sends: readonly PreparedOtp[],
  companies: readonly string[],
): Promise<{ outbox: WrittenOtps['outbox']; lockedBalances: Map<string, Money> }> {
  const jobs = otpDeliveryJobs(
    sends.map((send) => ({ channel: send.channel, messageId: send.message.id })),
    sends[0].sentAt,
  );
  const column = <T>(pick: (send: PreparedOtp) => T): T[] => sends.map(pick);
  const otpRows = (first: number) => {
    const $ = (i: number) => `$${first + i}`;
    const types = ['uuid', 'uuid', 'uuid', 'text', 'text', 'text', 'text', 'smallint', 'text', 'timestamptz', 'timestamptz', 'uuid', 'numeric', 'text', 'jsonb', 'smallint'];
    return {
      ctes: [
        `o AS (
           INSERT INTO otps (id, company_id, application_id, recipient, channel, sender, lang, code_length, code_hash, expires_at,
             last_sent_at, message_id, cost, template_text, custom_vars, expiry_minutes, created_at)
           SELECT id, company_id, application_id, recipient, channel, sender, lang, code_length, code_hash, expires_at,
             sent_at, message_id, cost, template_text, custom_vars, expiry_minutes, sent_at
           FROM unnest(${types.map((type, i) => `${$(i)}::${type}[]`).join(', ')})
             AS t(id, company_id, application_id, recipient, channel, sender, lang, code_length, code_hash, expires_at, sent_at, message_id,
               cost, template_text, custom_vars, expiry_minutes)
           RETURNING id, company_id, application_id, recipient, channel, created_at)`,
        `e AS (
           INSERT INTO otp_events (otp_id, company_id, application_id, recipient, event, detail, created_at)
           SELECT id, company_id, application_id, recipient, 'sent', jsonb_build_object('channel', channel), created_at FROM o)`,
      ],
      params: [
        column((s) => s.id), column((s) => s.companyId), column((s) => s.applicationId), column((s) => s.recipient), column((s) => s.channel),
        column((s) => s.sender), column((s) => s.lang), column((s) => s.codeLength), column((s) => s.codeHash), column((s) => s.expiresAt.toISOString()),
        column((s) => s.sentAt.toISOString()), column((s) => s.message.id), column((s) => formatMoney(s.message.cost)), column((s) => s.templateText),
        column((s) => JSON.stringify(s.customVars)), column((s) => s.expiryMinutes),
      ],
    };
  };
  const inserted = await new MessageRepository(db).insertWithJobsLockingBalances(manager, sends.map((send) => send.message), jobs, companies, otpRows);
  return { outbox: { ids: inserted.outboxIds, jobs }, lockedBalances: inserted.balances };
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
