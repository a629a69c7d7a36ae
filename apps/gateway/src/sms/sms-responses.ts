import { moneyToJson } from '@mp/billing-domain';
import type { SmsAcceptance } from '@mp/messaging';
import type { RecipientList } from '@mp/messaging-domain';
import type { SmsRequest } from './sms-request';

export function singleRecipientResponse(request: SmsRequest, accepted: SmsAcceptance) {
  const [message] = accepted.messages;
  const status = accepted.status === 'scheduled' ? 'scheduled' : 'sent';
  return {
    status: 'success' as const,
    message: status === 'scheduled' ? 'SMS scheduled' : 'SMS sent successfully',
    data: {
      message_id: message.messageId,
      to: message.to,
      from: request.sender,
      message: request.message,
      parts: message.parts,
      cost: moneyToJson(message.cost),
      balance: moneyToJson(accepted.balance),
      status,
      reference: request.reference,
    },
  };
}

export function multiRecipientResponse(list: RecipientList, accepted: SmsAcceptance) {
  const status = accepted.status === 'scheduled' ? 'scheduled' : 'sent';
  const failed = list.invalid.map((entry) => ({ message_id: null, to: entry.number, status: 'failed', cost: 0, error: entry.error }));
  return {
    status: 'success' as const,
    message: `SMS ${status === 'scheduled' ? 'scheduled' : 'sent'} to ${accepted.messages.length} of ${list.total} recipients`,
    data: {
      total_recipients: list.total,
      successful: accepted.messages.length,
      failed: failed.length,
      duplicates: list.duplicates,
      total_cost: moneyToJson(accepted.totalCost),
      balance: moneyToJson(accepted.balance),
      messages: [...accepted.messages.map((m) => ({ message_id: m.messageId, to: m.to, status, cost: moneyToJson(m.cost) })), ...failed],
    },
  };
}
