import { findPrice, type Money, type PriceRoute, type PriceRule } from '@mp/billing-domain';
import { splitSms, type SmsEncoding } from '@mp/messaging-domain';
import { timeOrderedUuid } from '@mp/persistence';
import { randomUUID } from 'node:crypto';
import type { NewMessage } from './message.repository';
import { userMessageReferences } from './part-references';

export type SmsRoute = Exclude<PriceRoute, 'whatsapp'>;

export interface SmsSendCommand {
  companyId: string;
  sender: string;
  route: SmsRoute;
  body: string;
  /** Valid E.164 numbers, already deduplicated, in request order. */
  recipients: readonly string[];
  reference: string | null;
  webhookUrl: string | null;
  scheduledAt: Date | null;
}

export class NoPriceError extends Error {
  constructor(
    readonly recipient: string,
    readonly route: string,
  ) {
    super(`No price is set for ${recipient} on route ${route}`);
    this.name = 'NoPriceError';
  }
}

/** A send split, priced and turned into rows, ready to be charged and stored. */
export interface PreparedSend {
  requestId: string;
  companyId: string;
  encoding: SmsEncoding;
  status: 'queued' | 'scheduled';
  rows: NewMessage[];
  totalCost: Money;
}

/** Splits the text and prices every recipient; throws (SmsTextError, NoPriceError) before anything is stored. */
export function prepareSend(command: SmsSendCommand, prices: readonly PriceRule[]): PreparedSend {
  const split = splitSms(command.body);
  const requestId = randomUUID();
  const status = command.scheduledAt ? 'scheduled' : 'queued';
  const parts = split.parts.length;
  const rows: NewMessage[] = command.recipients.map((recipient) => {
    const rule = findPrice(prices, recipient, command.route);
    if (!rule) throw new NoPriceError(recipient, command.route);
    const id = timeOrderedUuid();
    return {
      id,
      companyId: command.companyId,
      requestId,
      route: command.route,
      sender: command.sender,
      recipient,
      body: command.body,
      encoding: split.encoding,
      parts,
      pricePerPart: rule.price,
      cost: rule.price * BigInt(parts),
      reference: command.reference,
      webhookUrl: command.webhookUrl,
      status,
      scheduledAt: command.scheduledAt,
      partReferences: userMessageReferences(id, parts),
    };
  });
  const totalCost = rows.reduce((sum, row) => sum + row.cost, 0n);
  return { requestId, companyId: command.companyId, encoding: split.encoding, status, rows, totalCost };
}
