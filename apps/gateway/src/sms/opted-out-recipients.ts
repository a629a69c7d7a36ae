import { HttpStatus } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import type { SuppressionCheck } from '@mp/messaging';
import { RECIPIENT_OPTED_OUT, type RecipientList } from '@mp/messaging-domain';

/**
 * The list with the numbers that opted out of this sender moved to the failed ones, with
 * `Recipient has opted out`: never priced nor charged. A list left with no one to send to is
 * refused (403), with `failed_numbers` when several were given. POST /sms/send and
 * POST /sms/estimate both go through here, so an estimate answers what the send would do.
 */
export async function withoutOptedOut(suppression: SuppressionCheck, companyId: string, sender: string, list: RecipientList): Promise<RecipientList> {
  const optedOut = await suppression.suppressed(
    companyId,
    sender,
    list.valid.map((entry) => entry.e164),
  );
  if (optedOut.size === 0) return list;
  const refused = list.valid.filter((entry) => optedOut.has(entry.e164)).map((entry) => ({ number: entry.e164, error: RECIPIENT_OPTED_OUT }));
  const rest = { ...list, valid: list.valid.filter((entry) => !optedOut.has(entry.e164)), invalid: [...list.invalid, ...refused] };
  if (rest.valid.length === 0) {
    throw new ApiError(HttpStatus.FORBIDDEN, RECIPIENT_OPTED_OUT, list.total > 1 ? { failed_numbers: rest.invalid } : {});
  }
  return rest;
}
