import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { OptOutStore } from '@mp/messaging';
import { checkSender, INVALID_PHONE_NUMBER, parsePhoneNumber } from '@mp/messaging-domain';
import { InvalidCursorError } from '@mp/persistence';
import { parseOptOutImport, parseOptOutListQuery } from './opt-outs-request';

/** /sms/opt-outs: the company's suppression list, read and changed through the API. */
@Injectable()
export class OptOutsService {
  constructor(private readonly store: OptOutStore) {}

  async list(companyId: string, query: unknown) {
    const filter = valueOrBadRequest(parseOptOutListQuery(query));
    try {
      return { status: 'success' as const, message: 'Opt-outs retrieved', data: await this.store.list(companyId, filter) };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
  }

  async add(companyId: string, body: unknown) {
    const request = valueOrBadRequest(parseOptOutImport(body, new Date()));
    if (request.entries.length === 0) throw new ApiError(HttpStatus.BAD_REQUEST, 'No entry can be added', { failed_numbers: request.failed });
    const { added } = await this.store.add(companyId, request.entries);
    return {
      status: 'success' as const,
      message: `${added} opt-out${added === 1 ? '' : 's'} added`,
      data: { received: request.entries.length + request.failed.length, added, already_listed: request.entries.length - added, failed_numbers: request.failed },
    };
  }

  /** Without `number` every entry of the phone goes; with it, only the entry for that number. */
  async remove(companyId: string, phoneInput: string, query: unknown) {
    const phone = parsePhoneNumber(phoneInput.trim(), { allowMissingPlus: true });
    if (!phone.ok) throw new ApiError(HttpStatus.BAD_REQUEST, INVALID_PHONE_NUMBER);
    const number = numberOf(query);
    const { removed } = await this.store.remove(companyId, phone.e164, number);
    if (removed === 0) throw new ApiError(HttpStatus.NOT_FOUND, 'Opt-out not found');
    return { status: 'success' as const, message: 'Opt-out removed', data: { phone: phone.e164, number: number ?? null, removed } };
  }
}

function numberOf(query: unknown): string | undefined {
  const raw = query !== null && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  const unknown = Object.keys(raw).find((key) => key !== 'number');
  if (unknown !== undefined) throw new ApiError(HttpStatus.BAD_REQUEST, `${unknown} is not a known query parameter`);
  if (raw['number'] === undefined) return undefined;
  const checked = typeof raw['number'] === 'string' ? checkSender(raw['number']) : null;
  if (!checked?.ok) throw new ApiError(HttpStatus.BAD_REQUEST, 'number must be a phone number or sender id of the company');
  return checked.sender;
}
