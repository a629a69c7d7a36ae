import type { DataSource, EntityManager } from 'typeorm';
import { InvalidArgumentError, NotFoundError } from '../errors';
import type { AuditActor, AuditLogRepository } from '../people/audit-log.repository';
import { receivedNumberForms } from './number-forms';

export type SenderKind = 'long_code' | 'short_code' | 'alphanumeric';

export interface AssignedSender {
  value: string;
  kind: SenderKind;
  companyId: string;
  createdAt: Date;
}

/** Which company each assigned sender belongs to, by `senderKey`. */
export type SenderOwnership = ReadonlyMap<string, string>;

/** A number: up to 15 digits, `+` optional (`447400900123` is `+447400900123`). */
const NUMBER = /^\+?\d{1,15}$/;
/** An alphanumeric sender id, as messaging's checkSender accepts one. */
const ALPHANUMERIC = /^[A-Za-z0-9 ]{1,11}$/;

/**
 * How a sender is compared: a number as its digits (`+447400900123` is `447400900123`), a sender
 * id without case. A send's `from` and an assigned value name the same sender when their keys
 * are equal.
 */
export function senderKey(sender: string): string {
  const trimmed = sender.trim();
  return NUMBER.test(trimmed) ? trimmed.replace(/^\+/, '') : trimmed.toLowerCase();
}

/** The stored values a sender may be written as: a number with and without its `+`. */
function storedForms(sender: string): string[] {
  const key = senderKey(sender);
  return NUMBER.test(sender.trim()) ? [`+${key}`, key] : [key];
}

/**
 * A number to assign: a long code in E.164 with its `+` (stored so), a short code as its 3 to 8
 * digits (stored without `+`, which a short code has not); refused otherwise.
 */
export function parseNumber(input: string, kind: 'long_code' | 'short_code' = 'long_code'): string {
  const trimmed = input.trim();
  if (kind === 'short_code') {
    if (!/^\+?\d{3,8}$/.test(trimmed)) throw new InvalidArgumentError(`a short code must be 3 to 8 digits, e.g. 76543 (got "${input}")`);
    return trimmed.replace(/^\+/, '');
  }
  if (!/^\+[1-9]\d{5,14}$/.test(trimmed)) throw new InvalidArgumentError(`number must be in E.164 with its "+", e.g. +447400900123 (got "${input}")`);
  return trimmed;
}

/** A sender id to assign: 1-11 letters, digits or spaces with at least one letter. */
export function parseSenderId(input: string): string {
  const trimmed = input.trim();
  if (!ALPHANUMERIC.test(trimmed) || !/[A-Za-z]/.test(trimmed))
    throw new InvalidArgumentError(`sender must be 1-11 letters, digits or spaces with at least one letter (got "${input}")`);
  return trimmed;
}

interface SenderRow {
  value: string;
  kind: SenderKind;
  company_id: string;
  created_at: Date;
}

const toSender = (row: SenderRow): AssignedSender => ({ value: row.value, kind: row.kind, companyId: row.company_id, createdAt: row.created_at });

/**
 * The numbers and sender ids assigned to companies (`company_senders`), the one writer of that
 * table. Each change is audited (`sender.assigned` / `sender.unassigned`) in its transaction.
 */
export class SenderRegistry {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  /**
   * The company a number or sender id is assigned to; null when it is assigned to none. A number
   * may be written as a carrier gives it (receivedNumberForms): `447400900123` finds
   * `+447400900123`, `+76543` finds the short code `76543`; when two stored forms match, the
   * likelier wins.
   */
  async ownerOf(value: string): Promise<string | null> {
    const numberForms = receivedNumberForms(value);
    const forms = numberForms.length > 0 ? numberForms : [senderKey(value)];
    const rows: { company_id: string }[] = await this.db.query(
      `SELECT s.company_id FROM unnest($1::text[]) WITH ORDINALITY AS form (value, rank)
       JOIN company_senders s ON lower(s.value) = form.value ORDER BY form.rank LIMIT 1`,
      [forms],
    );
    return rows[0]?.company_id ?? null;
  }

  /** Every assignment, for a cache that answers ownerOf without a query per send. */
  async ownership(): Promise<SenderOwnership> {
    const rows: { value: string; company_id: string }[] = await this.db.query(`SELECT value, company_id FROM company_senders`);
    return new Map(rows.map((row) => [senderKey(row.value), row.company_id]));
  }

  async list(companyId: string): Promise<AssignedSender[]> {
    const rows: SenderRow[] = await this.db.query(
      `SELECT value, kind, company_id, created_at FROM company_senders WHERE company_id = $1 ORDER BY kind, value`,
      [companyId],
    );
    return rows.map(toSender);
  }

  /**
   * Assigns a value (checked with parseNumber / parseSenderId) to a company. Assigning it again
   * to the same company changes nothing; one assigned to another company is refused.
   */
  async assign(companyId: string, value: string, kind: SenderKind, actor: AuditActor = null): Promise<AssignedSender> {
    return this.db.transaction(async (manager) => {
      const companies: unknown[] = await manager.query(`SELECT 1 FROM companies WHERE id = $1`, [companyId]);
      if (companies.length === 0) throw new NotFoundError(`no company ${companyId}`);
      await this.refuseOtherForm(manager, companyId, value);
      const inserted: SenderRow[] = await manager.query(
        `INSERT INTO company_senders (value, kind, company_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING value, kind, company_id, created_at`,
        [value, kind, companyId],
      );
      if (inserted.length === 0) {
        const [existing]: SenderRow[] = await manager.query(`SELECT value, kind, company_id, created_at FROM company_senders WHERE lower(value) = lower($1)`, [
          value,
        ]);
        if (existing && existing.company_id === companyId) return toSender(existing);
        throw new InvalidArgumentError(`${value} is assigned to another company; unassign it there first`);
      }
      await this.audit.record(manager, { companyId, actor, action: 'sender.assigned', details: { value, kind } });
      return toSender(inserted[0]);
    });
  }

  /**
   * A short code and a long number of the same digits (`44740090`, `+44740090`) are one sender to
   * the send policy and to a carrier that drops the `+`, so both belong to one company at most.
   * The lock on the digits makes a concurrent assignment of the other form wait for this one.
   */
  private async refuseOtherForm(manager: EntityManager, companyId: string, value: string): Promise<void> {
    if (!NUMBER.test(value.trim())) return;
    const key = senderKey(value);
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`company-senders:${key}`]);
    const others: { value: string }[] = await manager.query(`SELECT value FROM company_senders WHERE value = ANY($1::text[]) AND company_id <> $2`, [
      [`+${key}`, key],
      companyId,
    ]);
    const [other] = others;
    if (other === undefined) return;
    const named = other.value === value ? value : `${value} has the digits of ${other.value}, which`;
    throw new InvalidArgumentError(`${named} is assigned to another company; unassign it there first`);
  }

  /** Takes a value from a company; false when the company had no such value. */
  async unassign(companyId: string, value: string, actor: AuditActor = null): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      // A DELETE's own RETURNING comes back with its row count; a SELECT of it comes back as rows only.
      const removed: Pick<SenderRow, 'value' | 'kind'>[] = await manager.query(
        `WITH removed AS (DELETE FROM company_senders WHERE lower(value) = ANY($1::text[]) AND company_id = $2 RETURNING value, kind) SELECT value, kind FROM removed`,
        [storedForms(value), companyId],
      );
      if (removed.length === 0) return false;
      await this.audit.record(manager, { companyId, actor, action: 'sender.unassigned', details: { value: removed[0].value, kind: removed[0].kind } });
      return true;
    });
  }
}
