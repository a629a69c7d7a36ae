import { classifyKeyword, type KeywordIntent } from '@mp/messaging-domain';
import type { EntityManager } from 'typeorm';
import { canonicalNumber } from './opt-out-store';

export interface InboundKeyword {
  companyId: string;
  /** The contact who sent the message (E.164). */
  phone: string;
  /** The company's number it was sent to. */
  number: string;
  text: string;
  /** The operator's own opt-out keywords, added to the standard ones. */
  extraOptOutKeywords?: readonly string[];
}

export interface KeywordOutcome {
  intent: KeywordIntent;
  /** Whether the list changed (false: the contact was already opted out, or in; always false for help). */
  changed: boolean;
}

/**
 * What an inbound message does to the company's suppression list when its whole text is a keyword
 * (issue 30, item 3), in the caller's transaction (the one that stores the inbound message), so the
 * message and its effect commit together. STOP (and the other opt-out keywords) adds the contact for
 * the number it wrote to, STOPALL for every number of the company; START, UNSTOP and YES lift the
 * entry for that number and the company-wide one (both would stop the next message from it); HELP
 * and INFO change nothing. Null when the text is not a keyword. The reply and the
 * contact.opted_out / contact.opted_in webhooks are the caller's, on `changed` or the intent.
 */
export async function applyInboundKeyword(manager: EntityManager, message: InboundKeyword): Promise<KeywordOutcome | null> {
  const intent = classifyKeyword(message.text, message.extraOptOutKeywords ?? []);
  if (intent === null || intent === 'help') return intent === null ? null : { intent, changed: false };
  if (intent === 'opt_in') {
    const [, removed]: [unknown, number] = await manager.query(
      `DELETE FROM opt_outs WHERE company_id = $1 AND phone = $2 AND (number = $3 OR number IS NULL)`,
      [message.companyId, message.phone, canonicalNumber(message.number)],
    );
    return { intent, changed: removed > 0 };
  }
  const added: unknown[] = await manager.query(
    `INSERT INTO opt_outs (company_id, phone, number, source) VALUES ($1, $2, $3, 'keyword')
     ON CONFLICT (company_id, phone, (coalesce(number, ''))) DO NOTHING RETURNING id`,
    [message.companyId, message.phone, intent === 'opt_out_all' ? null : canonicalNumber(message.number)],
  );
  return { intent, changed: added.length > 0 };
}
