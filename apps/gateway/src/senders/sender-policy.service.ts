import { HttpStatus, Injectable } from '@nestjs/common';
import { senderKey, SenderRegistry, type SenderOwnership } from '@mp/accounts';
import { ApiError } from '@mp/http-kit';
import { DEFAULT_SMS_SENDER } from '@mp/messaging-domain';
import { LoadingCache } from '../common/loading-cache';
import { GatewayEnv } from '../gateway.env';

/** How long an assignment may go unseen by a gateway: the table is read whole at most this often. */
const OWNERSHIP_TTL_MS = 5_000;

export const SENDER_OF_ANOTHER_COMPANY = 'from is a number or sender id assigned to another company';
export const SENDER_NOT_REGISTERED = 'from must be a number or sender id assigned to your company (SENDER_IDS_REGISTERED_ONLY)';

/**
 * Whether a company may send from a sender: never from one assigned to another company; from an
 * unassigned one unless SENDER_IDS_REGISTERED_ONLY, when only its own are allowed (and the
 * platform's defaults, used when a request names none). The assignments are held whole in a
 * cache, so a send costs no query (docs/decisions/0049-company-senders.md).
 */
@Injectable()
export class SenderPolicy {
  private readonly cache = new LoadingCache<SenderOwnership>({ ttlMs: OWNERSHIP_TTL_MS });
  private readonly registeredOnly: boolean;

  constructor(
    private readonly registry: SenderRegistry,
    config: GatewayEnv,
  ) {
    this.registeredOnly = config.SENDER_IDS_REGISTERED_ONLY;
  }

  /** Throws the 403 ApiError that refuses the send; `platformDefault` is the sender used when a request names none. */
  async check(companyId: string, sender: string, platformDefault: string = DEFAULT_SMS_SENDER): Promise<void> {
    await this.checkAll(companyId, [sender], platformDefault);
  }

  /** check for each sender of a send (a campaign's own and its messages'): one refused refuses the send. */
  async checkAll(companyId: string, senders: Iterable<string>, platformDefault: string = DEFAULT_SMS_SENDER): Promise<void> {
    const ownership = (await this.cache.get('ownership', () => this.registry.ownership())) ?? new Map<string, string>();
    const allowedUnassigned = this.registeredOnly ? senderKey(platformDefault) : null;
    for (const sender of senders) {
      const key = senderKey(sender);
      const owner = ownership.get(key);
      if (owner === companyId) continue;
      if (owner !== undefined) throw new ApiError(HttpStatus.FORBIDDEN, SENDER_OF_ANOTHER_COMPANY);
      if (allowedUnassigned !== null && key !== allowedUnassigned) throw new ApiError(HttpStatus.FORBIDDEN, SENDER_NOT_REGISTERED);
    }
  }
}
